import { useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import SendIcon from '@mui/icons-material/Send';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { useGateway } from '../../schema/ui/gateway-api.ts';
import type { BulkActionBarProps } from '../../schema/ui/bulk-actions.tsx';

/**
 * The webhooks list's resend (spec 02 §7 `PATCH alerts/webhooks {event_ids}`): the chosen events (at most 500)
 * go back to the delivery worker, due now. Asked first; a refusal (another carrier's events, too many) is shown
 * above the bar and the choice is kept.
 */
export function ResendBar({ model, selectedIds, clear }: BulkActionBarProps) {
  const translate = useTranslate();
  const dataProvider = useGateway();
  const notify = useNotify();
  const refresh = useRefresh();
  const [asking, setAsking] = useState(false);
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const count = selectedIds.length;

  async function resend() {
    setSending(true);
    setRefusal(undefined);
    try {
      const answer = await dataProvider.call<{ data: { queued: number; selected: number } }>({
        method: 'PATCH',
        path: `webtool/${model.endpoint}`,
        body: { opname: 'resend', event_ids: selectedIds },
      });
      notify('webhooks.resent', { type: 'success', messageArgs: answer.data });
      clear();
      refresh();
    } catch (error) {
      setRefusal((error as Error).message);
    } finally {
      setSending(false);
      setAsking(false);
    }
  }

  return (
    <Paper variant="outlined" sx={{ p: 1.5, mb: 1 }} data-testid="webhook-resend-bar">
      {refusal && (
        <Alert severity="error" sx={{ mb: 1 }} role="alert">
          {refusal}
        </Alert>
      )}
      <Stack direction="row" spacing={2} alignItems="center" flexWrap="wrap" useFlexGap>
        <Typography variant="body2">{translate('webhooks.selected', { smart_count: count })}</Typography>
        <Button
          variant="contained"
          startIcon={<SendIcon />}
          disabled={!count || sending}
          onClick={() => setAsking(true)}
        >
          {translate('webhooks.resend_selected', { smart_count: count })}
        </Button>
        <Button onClick={clear} disabled={sending}>
          {translate('webhooks.clear')}
        </Button>
      </Stack>
      <Dialog open={asking} onClose={() => !sending && setAsking(false)} aria-labelledby="webhook-resend-title">
        <DialogTitle id="webhook-resend-title">{translate('webhooks.resend')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{translate('webhooks.resend_confirm', { smart_count: count })}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAsking(false)} disabled={sending}>
            {translate('ra.action.cancel')}
          </Button>
          <Button variant="contained" onClick={() => void resend()} disabled={sending}>
            {translate('webhooks.resend_selected', { smart_count: count })}
          </Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
}
