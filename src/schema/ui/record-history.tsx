import { useState } from 'react';
import HistoryIcon from '@mui/icons-material/History';
import {
  Alert,
  Box,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  useLocaleState,
  useRecordContext,
  useResourceContext,
  useTranslate,
  type Identifier,
} from 'react-admin';
import type { ResourceModel } from '../resource-model.ts';
import { FixedPager } from './local-pages.tsx';
import type { HistoryPage } from '../../contract/logs.ts';
import { useGatewayCalls } from './gateway-calls.ts';

const PAGE_SIZE = 10;

/** A stored value as text: never HTML, and an empty value as a dash. */
export function historyValue(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** One changed field: its label, then "from → to" after the locale's colon. */
export function ChangeLine({ label, change }: { label: string; change: { from: unknown; to: unknown } }) {
  const translate = useTranslate();
  return (
    <li>
      <strong>{label}</strong>
      {translate('history.change', { from: historyValue(change.from), to: historyValue(change.to) })}
    </li>
  );
}

function useRecordHistory(model: ResourceModel, id: Identifier | undefined, page: number) {
  const dataProvider = useGatewayCalls();
  return useQuery({
    queryKey: [model.name, 'history', id, page],
    enabled: id !== undefined,
    queryFn: () =>
      dataProvider.action<HistoryPage>(model.name, 'GET', 'history', undefined, {
        [model.id]: String(id),
        offset: page * PAGE_SIZE,
        limit: PAGE_SIZE,
      }),
  });
}

/** Who changed what and when, newest first: the record's audit trail from the gateway. */
export function RecordHistory({ model }: { model: ResourceModel }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [page, setPage] = useState(0);
  const { data, isPending, isError } = useRecordHistory(model, record?.id, page);
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' });
  const fieldLabel = (field: string) => translate(`resources.${model.name}.fields.${field}`, { _: field });

  if (isError) return <Alert severity="error">{translate('history.failed')}</Alert>;
  if (isPending) return <Typography>{translate('ra.page.loading')}</Typography>;
  if (!data.data.length) return <Typography>{translate('history.empty')}</Typography>;
  return (
    <Box>
      <Table size="small" aria-label={translate('history.title')}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('history.at')}</TableCell>
            <TableCell>{translate('history.user')}</TableCell>
            <TableCell>{translate('history.action')}</TableCell>
            <TableCell>{translate('history.changes')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data.data.map((entry) => (
            <TableRow key={entry.id}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{dateTime.format(new Date(entry.at))}</TableCell>
              <TableCell>
                {entry.username ?? '—'}
                {entry.partner_type && (
                  <Typography variant="caption" display="block" color="text.secondary">
                    {translate(`choices.partner_type.${entry.partner_type}`, { _: entry.partner_type })}
                  </Typography>
                )}
              </TableCell>
              <TableCell>{translate(`history.actions.${entry.action}`, { _: entry.action })}</TableCell>
              <TableCell>
                <Box component="ul" sx={{ m: 0, pl: 2 }}>
                  {Object.entries(entry.changes).map(([field, change]) => (
                    <ChangeLine key={field} label={fieldLabel(field)} change={change} />
                  ))}
                </Box>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <FixedPager count={data.total} page={page} size={PAGE_SIZE} onPage={setPage} />
    </Box>
  );
}

/** Opens the record's history from the edit page of any schema resource. */
export function HistoryButton({ model }: { model: ResourceModel }) {
  const [open, setOpen] = useState(false);
  const translate = useTranslate();
  const resource = useResourceContext();
  const record = useRecordContext();
  if (!record) return null;
  return (
    <>
      <Button label="history.button" onClick={() => setOpen(true)}>
        <HistoryIcon />
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="md" fullWidth aria-labelledby="history-title">
        <DialogTitle id="history-title">
          {translate('history.title_of', {
            name: historyValue(record[model.representation] ?? record.id),
            resource: translate(`resources.${resource}.name`, { smart_count: 1, _: resource }),
          })}
        </DialogTitle>
        <DialogContent>{open && <RecordHistory model={model} />}</DialogContent>
        <DialogActions>
          <Button label="ra.action.close" onClick={() => setOpen(false)} />
        </DialogActions>
      </Dialog>
    </>
  );
}
