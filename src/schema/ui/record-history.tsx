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
import type { FieldModel, ResourceModel } from '../resource-model.ts';
import { readableValue } from '../readable-value.ts';
import { dateTexts } from '../dates.ts';
import { FieldValue, fieldOf, isBlank, isChange, NOTHING } from './field-words.tsx';
import { FixedPager } from './local-pages.tsx';
import type { HistoryPage } from '../../contract/logs.ts';
import { useGateway } from './gateway-api.ts';

const PAGE_SIZE = 10;

/** A plain value as text (a user name, a record's name): never HTML, never JSON, an empty value as a dash. */
export function historyValue(value: unknown): string {
  if (isBlank(value)) return NOTHING;
  if (typeof value === 'object') return readableValue(value, { yes: '✓', no: '✗' }) || NOTHING;
  return String(value);
}

const FROM = '\u0000from\u0000';
const TO = '\u0000to\u0000';

/**
 * One changed field: its label, then "from → to" after the locale's colon, each value read through the
 * field's schema (src/schema/ui/field-words.tsx). A change from nothing to nothing draws no line.
 */
export function ChangeLine({
  label,
  change,
  field,
  resource,
}: {
  label: string;
  change: { from: unknown; to: unknown };
  /** The changed field's schema; without it the values still read as words. */
  field?: FieldModel;
  /** The resource of the record, for the labels of an object's keys. */
  resource?: string;
}) {
  const translate = useTranslate();
  if (!isChange(change)) return null;
  // The locale orders the words ("Status : Ouvert → Fermé"); the values are components (links).
  const [before, middle, after] = translate('history.change', { from: FROM, to: TO })
    .split(new RegExp(`${FROM}|${TO}`))
    .concat('', '');
  return (
    <li>
      <strong>{label}</strong>
      {before}
      <FieldValue field={field} resource={resource} value={change.from} />
      {middle}
      <FieldValue field={field} resource={resource} value={change.to} />
      {after}
    </li>
  );
}

function useRecordHistory(model: ResourceModel, id: Identifier | undefined, page: number) {
  const dataProvider = useGateway();
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
  const dates = dateTexts(locale);
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
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{dates.dateTime(entry.at)}</TableCell>
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
                    <ChangeLine
                      key={field}
                      label={fieldLabel(field)}
                      change={change}
                      field={fieldOf(model, field)}
                      resource={model.name}
                    />
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
