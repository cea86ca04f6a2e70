import { useState } from 'react';
import {
  Button as MuiButton,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material';
import DeleteForeverIcon from '@mui/icons-material/DeleteForever';
import { Button, useCanAccess, useNotify, useRecordContext, useRedirect, useRefresh, useTranslate } from 'react-admin';
import { useGateway } from '../../schema/ui/gateway-api.ts';

/**
 * Marks the end user for deletion (`DELETE {enduser_id}`, spec 02 §4): deleted at once when none of
 * their shipments waits, otherwise when the last one is done; the answer says which.
 */
export function MarkForDeletionButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const redirect = useRedirect();
  const dataProvider = useGateway();
  const { canAccess } = useCanAccess({ resource: 'end-users', action: 'delete' });
  const [asking, setAsking] = useState(false);
  if (!record || !canAccess || record.marked_for_deletion) return null;

  const confirm = async () => {
    setAsking(false);
    try {
      const answer = await dataProvider.call<{ deleted: boolean; active_pieces: number }>({
        method: 'DELETE',
        path: 'webtool/shipments/endusers',
        body: { enduser_id: record.enduser_id, version: record.version },
      });
      if (answer.deleted) {
        notify('end_users.deleted', { type: 'success' });
        redirect('list', 'end-users');
      } else {
        notify('end_users.marked', { type: 'info', messageArgs: { smart_count: answer.active_pieces } });
        refresh();
      }
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };

  return (
    <>
      <Button label="end_users.mark_for_deletion" startIcon={<DeleteForeverIcon />} onClick={() => setAsking(true)} />
      <Dialog open={asking} onClose={() => setAsking(false)} aria-labelledby="mark-for-deletion-title">
        <DialogTitle id="mark-for-deletion-title">{translate('end_users.mark_for_deletion')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{translate('end_users.confirm_deletion', { name: record.name })}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setAsking(false)}>{translate('ra.action.cancel')}</MuiButton>
          <MuiButton color="error" variant="contained" onClick={() => void confirm()}>
            {translate('ra.action.confirm')}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}
