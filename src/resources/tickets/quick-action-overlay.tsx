import { lazy, Suspense, useId, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Drawer,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import BoltIcon from '@mui/icons-material/Bolt';
import CloseIcon from '@mui/icons-material/Close';
import { useGetMany, useTranslate, type RaRecord } from 'react-admin';
import type { ResourceModel } from '../../schema/resource-model.ts';
import { isQuickActionExcluded, type TicketBadgeInput } from '../../schema/ticket-badge.ts';
import { QUICK_ACTIONS_MAX } from '../../schema/ticket-quick-actions.ts';
import { parseTicketNumbers } from '../../schema/ticket-numbers.ts';

/** The quick actions' form loads once tickets are found, not with every page's top bar. */
const QuickActionsForm = lazy(() =>
  import('./quick-actions-bar.tsx').then((module) => ({ default: module.QuickActionsForm })),
);

/**
 * The tickets' part of the main layout's quick-action overlay (spec 01 §2.1): from any page, a
 * button in the top bar opens a side panel where tickets are chosen by number (a caller's phone call
 * names them) and the quick actions of the tickets list are applied to them, without leaving the
 * page. The numbers are read in one request; tickets the caller may not see read as not found, and
 * Declined, Closed, Courier and Service ones are named and left out, as in the list.
 */
export default function TicketQuickActionOverlay({ model }: { model: ResourceModel }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [ids, setIds] = useState<number[]>([]);
  const [problem, setProblem] = useState<string>();
  const titleId = useId();
  const { data: found = [], isPending } = useGetMany<RaRecord>(model.name, { ids }, { enabled: ids.length > 0 });

  const find = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseTicketNumbers(text, QUICK_ACTIONS_MAX);
    setProblem(parsed.error ? translate(parsed.error.key, parsed.error.args) : undefined);
    setIds(parsed.error ? [] : parsed.numbers);
  };
  const clear = () => {
    setIds([]);
    setText('');
    setProblem(undefined);
  };

  const foundIds = new Set(found.map((ticket) => Number(ticket.id)));
  const missing = isPending ? [] : ids.filter((id) => !foundIds.has(id));
  const excluded = found.filter((ticket) => isQuickActionExcluded(ticket as unknown as TicketBadgeInput));
  const eligible = found.filter((ticket) => !isQuickActionExcluded(ticket as unknown as TicketBadgeInput));

  return (
    <>
      <Tooltip title={translate('quick_actions.overlay.open')}>
        <IconButton color="inherit" aria-label={translate('quick_actions.overlay.open')} onClick={() => setOpen(true)}>
          <BoltIcon />
        </IconButton>
      </Tooltip>
      <Drawer
        anchor="right"
        open={open}
        onClose={() => setOpen(false)}
        slotProps={{ paper: { sx: { width: { xs: '100%', sm: 560 } }, 'aria-labelledby': titleId } }}
      >
        <Box sx={{ p: 2 }}>
          <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ mb: 2 }}>
            <Typography variant="h6" component="h2" id={titleId}>
              {translate('quick_actions.overlay.title')}
            </Typography>
            <IconButton aria-label={translate('ra.action.close')} onClick={() => setOpen(false)}>
              <CloseIcon />
            </IconButton>
          </Stack>
          <Box component="form" onSubmit={find} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mb: 2 }}>
            <TextField
              size="small"
              fullWidth
              autoFocus
              label={translate('quick_actions.overlay.ticket_numbers')}
              value={text}
              onChange={(event) => setText(event.target.value)}
              error={Boolean(problem)}
              helperText={problem ?? translate('quick_actions.overlay.hint', { max: QUICK_ACTIONS_MAX })}
            />
            <Button type="submit" variant="outlined" sx={{ flexShrink: 0 }}>
              {translate('quick_actions.overlay.find')}
            </Button>
          </Box>
          {missing.length > 0 && (
            <Alert severity="warning" sx={{ mb: 1 }}>
              {translate('quick_actions.overlay.not_found', {
                smart_count: missing.length,
                numbers: missing.join(', '),
              })}
            </Alert>
          )}
          {excluded.length > 0 && (
            <Alert severity="info" sx={{ mb: 1 }}>
              {translate('quick_actions.overlay.left_out', {
                smart_count: excluded.length,
                numbers: excluded.map((ticket) => ticket.id).join(', '),
              })}{' '}
              {translate('quick_actions.excluded')}
            </Alert>
          )}
          {eligible.length > 0 && (
            <>
              <List dense aria-label={translate('quick_actions.overlay.chosen_tickets')} sx={{ mb: 1 }}>
                {eligible.map((ticket) => (
                  <ListItem key={ticket.id} disableGutters>
                    <ListItemText
                      primary={`${translate('quick_actions.overlay.ticket', { id: ticket.id })} · ${String(ticket.sp_name ?? '')}`}
                      secondary={String(ticket.hardware_name ?? '')}
                    />
                    <Chip size="small" label={translate(`choices.ticket_badge.${String(ticket.badge)}`)} />
                  </ListItem>
                ))}
              </List>
              <Suspense fallback={null}>
                <QuickActionsForm
                  model={model}
                  selectedIds={eligible.map((ticket) => ticket.id)}
                  tickets={eligible}
                  clear={clear}
                />
              </Suspense>
            </>
          )}
        </Box>
      </Drawer>
    </>
  );
}
