import { lazy, Suspense, useState, type FormEvent } from 'react';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  LinearProgress,
  MenuItem,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Title, useLocaleState, useTranslate } from 'react-admin';
import { useGateway } from '../../schema/ui/gateway-api.ts';
import type { LogResult, LogRow } from '../../contract/logs.ts';
import { logKeys, logsApi } from './api.ts';
import { useLocalPages } from '../../schema/ui/local-pages.tsx';
import { ChangeLine, historyValue } from '../../schema/ui/record-history.tsx';
import { fieldOf, isChange, ReferenceName, resourceModel } from '../../schema/ui/field-words.tsx';
import { dateTexts } from '../../schema/dates.ts';
import { lastDay, logTime, searchWindow } from './log-search.ts';

/** The pickers load with the page's first use, not with the app. */
const LocalDateTimeField = lazy(() =>
  import('../../schema/ui/date-time-pickers.tsx').then((pickers) => ({ default: pickers.LocalDateTimeField })),
);

const PAGE_SIZE = 50;
/** A new record changes every field: the summary names the first ones. */
const SUMMARY_FIELDS = 10;

export interface WebtoolLogsPageProps {
  /** Gateway endpoint -> resource name: the audit trail names records by endpoint, labels use resources. */
  resourceNames: Record<string, string>;
}

function useLabels(resourceNames: Record<string, string>) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dates = dateTexts(locale);
  const fieldLabel = (endpoint: string, field: string) => {
    const name = resourceNames[endpoint];
    return name ? translate(`resources.${name}.fields.${field}`, { _: field }) : field;
  };
  return {
    time: (timestamp: string) => dates.dateTime(logTime(timestamp)),
    action: (action: string | undefined) =>
      action ? translate(`history.actions.${action}`, { _: action }) : historyValue(action),
    /** The record by its kind and its name, linked to its page (its key only while the name loads). */
    record: (endpoint: string | undefined, key: string | undefined) => {
      if (!endpoint) return historyValue(key);
      const name = resourceNames[endpoint];
      const type = name ? translate(`resources.${name}.name`, { smart_count: 1, _: endpoint }) : endpoint;
      if (!name || key === undefined || key === '') return type;
      return (
        <>
          {type} <ReferenceName resource={name} id={key} />
        </>
      );
    },
    field: fieldLabel,
    /** The schema of a changed field, so that its values read as words. */
    schemaField: (endpoint: string | undefined, field: string) =>
      fieldOf(resourceModel(endpoint ? resourceNames[endpoint] : undefined), field),
    resource: (endpoint: string | undefined) => (endpoint ? resourceNames[endpoint] : undefined),
    /** The changed fields by their labels, the first ones only. */
    summary: (row: LogRow) => {
      const { fields, resource } = row;
      if (!Array.isArray(fields) || !resource) return row['@message'];
      const named = fields.slice(0, SUMMARY_FIELDS).map((field) => fieldLabel(resource, field));
      const more = fields.length - named.length;
      return [...named, ...(more > 0 ? [translate('logs.more_fields', { smart_count: more })] : [])].join(', ');
    },
  };
}

type Change = { from: unknown; to: unknown };

function changeList(changes: unknown): [string, Change][] | undefined {
  if (!changes || typeof changes !== 'object' || Array.isArray(changes)) return undefined;
  return Object.entries(changes as Record<string, unknown>).map(([field, change]) => {
    const { from, to } = (change && typeof change === 'object' ? change : { to: change }) as Partial<Change>;
    return [field, { from, to }];
  });
}

/** The full entry behind one result row; every value shown as text, never as HTML. */
function LogEntryDialog({
  ptr,
  onClose,
  resourceNames,
}: {
  ptr: string | undefined;
  onClose: () => void;
  resourceNames: Record<string, string>;
}) {
  const translate = useTranslate();
  const labels = useLabels(resourceNames);
  const api = logsApi(useGateway());
  const {
    data: entry,
    isPending,
    isError,
  } = useQuery({
    queryKey: logKeys.entry(ptr),
    enabled: ptr !== undefined,
    queryFn: () => api.entry(ptr),
  });
  const changes = entry && changeList(entry.changes)?.filter(([, change]) => isChange(change));

  return (
    <Dialog open={ptr !== undefined} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="log-entry-title">
      <DialogTitle id="log-entry-title">{translate('logs.details_title')}</DialogTitle>
      <DialogContent>
        {isError && <Alert severity="error">{translate('logs.errors.failed')}</Alert>}
        {isPending && !isError && <LinearProgress aria-label={translate('ra.page.loading')} />}
        {entry && (
          <Stack spacing={2}>
            <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, m: 0 }}>
              <dt>{translate('logs.at')}</dt>
              <dd>{labels.time(entry.at)}</dd>
              <dt>{translate('logs.user')}</dt>
              <dd>{historyValue(entry.username)}</dd>
              <dt>{translate('logs.partner')}</dt>
              <dd>
                {entry.partner_type
                  ? translate(`choices.partner_type.${entry.partner_type}`, { _: entry.partner_type })
                  : historyValue(null)}
                {entry.partner_id && ` (${entry.partner_id})`}
              </dd>
              <dt>{translate('logs.action')}</dt>
              <dd>{labels.action(entry.action)}</dd>
              <dt>{translate('logs.record')}</dt>
              <dd>{labels.record(entry.resource, entry.key)}</dd>
            </Box>
            <Typography variant="subtitle1" component="h3">
              {translate('logs.changes')}
            </Typography>
            {changes === undefined ? (
              <Typography>{historyValue(entry.changes)}</Typography>
            ) : changes.length ? (
              <Box component="ul" sx={{ m: 0, pl: 2 }} data-testid="log-changes">
                {changes.map(([field, change]) => (
                  <ChangeLine
                    key={field}
                    label={labels.field(entry.resource, field)}
                    change={change}
                    field={labels.schemaField(entry.resource, field)}
                    resource={labels.resource(entry.resource)}
                  />
                ))}
              </Box>
            ) : (
              <Typography>{translate('logs.no_changes')}</Typography>
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

/** A header for the details column that only screen readers announce. */
const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

function LogResults({
  result,
  onOpen,
  resourceNames,
}: {
  result: LogResult;
  onOpen: (ptr: string) => void;
  resourceNames: Record<string, string>;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const labels = useLabels(resourceNames);
  const count = new Intl.NumberFormat(locale);
  const { shown: rows, pagination } = useLocalPages(result.data, PAGE_SIZE);

  if (!result.data.length) return <Typography sx={{ mt: 2 }}>{translate('logs.empty')}</Typography>;
  return (
    <Box sx={{ mt: 2 }}>
      <Typography sx={{ mb: 1 }}>{translate('logs.count', { smart_count: result.total })}</Typography>
      {result.truncated && (
        <Alert severity="info" sx={{ mb: 1 }}>
          {translate('logs.truncated', {
            shown: count.format(result.data.length),
            total: count.format(result.total),
          })}
        </Alert>
      )}
      <Table size="small" aria-label={translate('logs.results')}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('logs.at')}</TableCell>
            <TableCell>{translate('logs.user')}</TableCell>
            <TableCell>{translate('logs.action')}</TableCell>
            <TableCell>{translate('logs.record')}</TableCell>
            <TableCell>{translate('logs.summary')}</TableCell>
            <TableCell>
              <Box component="span" sx={visuallyHidden}>
                {translate('logs.details')}
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row['@ptr']} hover onClick={() => onOpen(row['@ptr'])} sx={{ cursor: 'pointer' }}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{labels.time(row['@timestamp'])}</TableCell>
              <TableCell>{historyValue(row.username)}</TableCell>
              <TableCell>{labels.action(row.action)}</TableCell>
              <TableCell>{labels.record(row.resource, row.key)}</TableCell>
              <TableCell sx={{ wordBreak: 'break-word' }}>{labels.summary(row)}</TableCell>
              <TableCell padding="checkbox">
                <IconButton aria-label={translate('logs.details')} size="small" onClick={() => onOpen(row['@ptr'])}>
                  <InfoOutlinedIcon fontSize="small" />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {pagination}
    </Box>
  );
}

/** Webtool logs (spec 02): search the gateway's logs by group, time range and text. */
export function WebtoolLogsPage({ resourceNames }: WebtoolLogsPageProps) {
  const translate = useTranslate();
  const api = logsApi(useGateway());
  const [range, setRange] = useState(() => lastDay(new Date()));
  const [chosenGroup, setChosenGroup] = useState<string>();
  const [queryString, setQueryString] = useState('');
  const [problem, setProblem] = useState<{ error: string; args?: Record<string, unknown> }>();
  const [openPtr, setOpenPtr] = useState<string>();

  const groups = useQuery({
    queryKey: logKeys.groups(),
    queryFn: api.groups,
    staleTime: Infinity,
  });
  const group = chosenGroup ?? groups.data?.[0]?.column_id ?? '';

  const search = useMutation({
    mutationFn: api.search,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const span = searchWindow(range.from, range.to);
    if ('error' in span) {
      setProblem(span);
      return;
    }
    setProblem(undefined);
    search.mutate({ ...span, logGroupNames: [group], queryString: queryString.trim() });
  };

  return (
    <Box sx={{ p: 2 }}>
      <Title title={translate('menu.webtool_logs')} />
      <Card>
        <CardContent>
          <Box component="form" onSubmit={submit} noValidate>
            {/* react-admin's theme makes text fields full width; here they share rows. */}
            <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'flex-start' }}>
              <TextField
                select
                label={translate('logs.group')}
                value={group}
                onChange={(event) => setChosenGroup(event.target.value)}
                disabled={!groups.data}
                fullWidth={false}
                sx={{ minWidth: 220 }}
              >
                {(groups.data ?? []).map((item) => (
                  <MenuItem key={item.column_id} value={item.column_id}>
                    {translate(`logs.groups.${item.column_id}`, { _: item.column_name })}
                  </MenuItem>
                ))}
              </TextField>
              <Suspense fallback={<Skeleton variant="rounded" width={520} height={56} />}>
                <LocalDateTimeField
                  label={translate('logs.from')}
                  value={range.from}
                  onChange={(from) => setRange((current) => ({ ...current, from }))}
                  required
                />
                <LocalDateTimeField
                  label={translate('logs.to')}
                  value={range.to}
                  onChange={(to) => setRange((current) => ({ ...current, to }))}
                  required
                />
              </Suspense>
              <TextField
                label={translate('logs.query')}
                helperText={translate('logs.query_help')}
                value={queryString}
                onChange={(event) => setQueryString(event.target.value)}
                slotProps={{ htmlInput: { maxLength: 500 } }}
                fullWidth={false}
                sx={{ flex: 1, minWidth: 240 }}
              />
              <Box>
                <Button type="submit" variant="contained" disabled={!group || search.isPending} sx={{ mt: 1 }}>
                  {translate('logs.search')}
                </Button>
              </Box>
            </Stack>
          </Box>
          {groups.isError && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {translate('logs.errors.failed')}
            </Alert>
          )}
          {problem && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {translate(problem.error, problem.args)}
            </Alert>
          )}
          {search.isPending && <LinearProgress aria-label={translate('ra.page.loading')} sx={{ mt: 2 }} />}
          {search.isError && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {translate('logs.errors.failed')}
            </Alert>
          )}
          {search.data && !search.isPending && (
            <LogResults
              key={search.submittedAt}
              result={search.data}
              onOpen={setOpenPtr}
              resourceNames={resourceNames}
            />
          )}
        </CardContent>
      </Card>
      <LogEntryDialog ptr={openPtr} onClose={() => setOpenPtr(undefined)} resourceNames={resourceNames} />
    </Box>
  );
}
