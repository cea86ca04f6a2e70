import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { Form, HttpError, ResourceContextProvider, SaveButton, Title, useLocaleState, useTranslate } from 'react-admin';
import { useGateway } from './gateway-api.ts';
import type { FieldErrors } from '../../contract/errors.ts';
import { exportFileName } from '../csv-export.ts';
import { csvDateTime, dateTexts } from '../dates.ts';
import { parseReportFile, reportCsv } from '../report-file.ts';
import { toFieldErrors, validateRecord } from '../validate.ts';
import { GatewayJobProgress, REPORT_POLL_MS, useGatewayJob, type JobPoll } from './gateway-job.tsx';
import { formOf, loadValidators, schemaRegistry } from './registry.ts';
import { SchemaInput } from './schema-inputs.tsx';
import { downloadBlob } from './download-file.ts';

/** What the gateway's file poll answers once the report is built: the file and when its link expires. */
export interface ReportFile {
  file: string;
  expires_at: string;
  /** The id the file was requested under (a PDF of the same result is asked for by it). */
  request_id?: string;
  /** The whole ready answer: what a report gives besides its file (totals). */
  answer?: Readonly<Record<string, unknown>>;
}

export interface GatewayReportProps {
  /** Path under webtool/ that takes the request and the polls, e.g. `shipments`. */
  endpoint: string;
  /** GET opname that answers `{ request_id }` for the form's values, e.g. `reports`. */
  requestOpname: string;
  /** GET opname polled with the `request_id`: `pending` (with `progress`), `ready` (a ReportFile) or `failed`. */
  fileOpname: string;
  /** `$id` of the request form's schema (no `x-resource`): its inputs, validation and the gateway's check. */
  form: string;
  /** The labels of the form's fields: `resources.<labels>.fields.<field>`. */
  labels: string;
  /** Locale key of the page's title; the CSV file is named after it. */
  title: string;
  /** Locale prefix of the file's column names, `<columns>.<name>`; a name without a key shows as it is. */
  columns: string;
  /** Values the form starts with (a default report kind, a date range). */
  initialValues?: Record<string, unknown>;
  /** Rows per page of the result table. */
  rowsPerPage?: number;
  /** How often the file is polled: `REPORT_POLL_MS` (1.5 s) unless given (`CSV_POLL_MS`, 3 s, for invoices). */
  intervalMs?: number;
  /** Shown under the result, with it (the invoices' downloads). */
  children?: ReactNode;
  /** Called once a requested file is ready (a list of what was made reloads), with it. */
  onDone?: (report: ReportFile) => void;
  /** What the finished report says besides its table (totals), shown above it. */
  summary?: (report: ReportFile) => ReactNode;
  /** Rules of the form a schema cannot say (a period's end before the current month), as field errors. */
  check?: (values: Record<string, unknown>) => FieldErrors;
  /**
   * How a cell reads in the table and the CSV, from its column and its row (column name -> value):
   * the file's codes as words of the user's language. Undefined keeps the file's value.
   */
  cellText?: (column: string, row: Readonly<Record<string, string>>) => string | undefined;
  /** Columns whose cells never wrap (a unit name "DK00078-1" is not broken at its hyphen). */
  nowrap?: readonly string[];
}

function submissionErrors(errors: FieldErrors): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors).map(([field, { message, args }]) => [
      field,
      `@@react-admin@@${JSON.stringify({ message, args: args ?? {} })}`,
    ]),
  );
}

function gatewayFieldErrors(error: unknown): FieldErrors | undefined {
  if (!(error instanceof HttpError) || error.status !== 422) return undefined;
  const errors = (error.body as { errors?: unknown } | undefined)?.errors;
  return errors && typeof errors === 'object' && !Array.isArray(errors) && Object.keys(errors).length
    ? (errors as FieldErrors)
    : undefined;
}

/** True from the moment `expiresAt` passes (the result is drawn anew for each report). */
function useExpired(expiresAt: string) {
  const [expired, setExpired] = useState(false);
  useEffect(() => {
    const left = Math.max(0, Date.parse(expiresAt) - Date.now() || 0);
    const timer = setTimeout(() => setExpired(true), left);
    return () => clearTimeout(timer);
  }, [expiresAt]);
  return expired;
}

/** A cell holding a moment (ISO 8601 with a time), as the gateway's report jobs write it. */
const MOMENT = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
/** A cell holding a day (`yyyy-MM-dd`, an invoice's period). */
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A cell holding a decimal amount as the file writes it (`3372.02`); whole numbers may be ids and stay as written. */
const DECIMAL = /^-?\d+\.\d+$/;

/**
 * What a report's cell reads as in the table, in the user's language: moments and days in its date
 * format, decimal amounts with its separators ("3 372,02"); the downloaded file keeps the values.
 */
function shownCell(value: string, dates: ReturnType<typeof dateTexts>, locale: string): string {
  if (MOMENT.test(value)) return dates.dateTime(value);
  if (DAY.test(value)) return dates.date(value);
  if (DECIMAL.test(value)) {
    const decimals = value.split('.')[1].length;
    return new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(
      Number(value),
    );
  }
  return value;
}

function ReportResult({
  report,
  headers,
  fileLabel,
  rowsPerPage,
  cellText,
  nowrap,
}: {
  report: ReportFile;
  headers: (column: string) => string;
  fileLabel: string;
  rowsPerPage: number;
  cellText?: GatewayReportProps['cellText'];
  nowrap?: readonly string[];
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dates = dateTexts(locale);
  const table = useMemo(() => {
    const parsed = parseReportFile(report.file);
    if (!cellText) return parsed;
    const rows = parsed.rows.map((row) => {
      const named = Object.fromEntries(parsed.columns.map((column, index) => [column, row[index] ?? '']));
      return parsed.columns.map((column, index) => cellText(column, named) ?? row[index]);
    });
    return { columns: parsed.columns, rows };
  }, [report.file, cellText]);
  const [page, setPage] = useState(0);
  const expired = useExpired(report.expires_at);
  const shown = table.rows.slice(page * rowsPerPage, (page + 1) * rowsPerPage);
  const download = () => {
    // The file keeps a moment as ISO 8601 to the second (schemas/README.md, "Dates"); the table reads it.
    const csv = reportCsv(
      table.columns.map(headers),
      table.rows.map((row) => row.map((value) => (MOMENT.test(value) ? csvDateTime(value) : value))),
    );
    downloadBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), exportFileName(fileLabel, new Date()));
  };
  const until = dates.dateTime(report.expires_at);
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography role="status">{translate('report.rows', { smart_count: table.rows.length })}</Typography>
        <Button variant="contained" startIcon={<DownloadIcon />} onClick={download} disabled={expired}>
          {translate('report.download_csv')}
        </Button>
        <Typography variant="body2" color="text.secondary">
          {expired ? translate('report.expired') : translate('report.valid_until', { time: until })}
        </Typography>
      </Stack>
      {table.rows.length === 0 ? (
        <Alert severity="info">{translate('report.empty')}</Alert>
      ) : (
        <>
          <TableContainer sx={{ maxHeight: 560 }}>
            <Table size="small" stickyHeader aria-label={fileLabel}>
              <TableHead>
                <TableRow>
                  {table.columns.map((column) => (
                    <TableCell key={column}>{headers(column)}</TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {shown.map((row, index) => (
                  <TableRow key={page * rowsPerPage + index}>
                    {table.columns.map((column, cell) => (
                      <TableCell
                        key={column}
                        sx={
                          MOMENT.test(row[cell]) || DAY.test(row[cell]) || nowrap?.includes(column)
                            ? { whiteSpace: 'nowrap' }
                            : undefined
                        }
                      >
                        {shownCell(row[cell] ?? '', dates, locale) || '-'}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={table.rows.length}
            page={page}
            onPageChange={(_event, next) => setPage(next)}
            rowsPerPage={rowsPerPage}
            rowsPerPageOptions={[rowsPerPage]}
            labelDisplayedRows={({ from, to, count }) => translate('report.page', { from, to, count })}
          />
        </>
      )}
    </Stack>
  );
}

/**
 * A report requested, then polled (spec 02 §4, §7): the request form (a schema's inputs and rules),
 * the progress while the gateway builds the file (every 1.5 s, with Cancel), then the file as a
 * table and as a CSV download, for as long as its link is valid. One component for every report of
 * the tool; an area gives its endpoint, opnames, form schema and the locale keys of its labels.
 */
export function GatewayReport({
  endpoint,
  requestOpname,
  fileOpname,
  form: formSchemaId,
  labels,
  title,
  columns,
  initialValues = {},
  rowsPerPage = 25,
  cellText,
  nowrap,
  intervalMs = REPORT_POLL_MS,
  children,
  onDone,
  check,
  summary,
}: GatewayReportProps) {
  const translate = useTranslate();
  const gateway = useGateway();
  const form = formOf(formSchemaId);
  const requested = useRef<string>(undefined);
  const [refusal, setRefusal] = useState<string>();
  const path = `webtool/${endpoint}`;

  const job = useGatewayJob<ReportFile>({
    request: async () => ({ request_id: requested.current! }),
    poll: async (requestId) => {
      const answer = await gateway.call<JobPoll<ReportFile> & Partial<ReportFile>>({
        method: 'GET',
        path,
        query: { opname: fileOpname, request_id: requestId },
      });
      return answer.status === 'ready'
        ? {
            status: 'ready',
            result: {
              file: answer.file ?? '',
              expires_at: answer.expires_at ?? '',
              request_id: requestId,
              answer: answer as unknown as Record<string, unknown>,
            },
          }
        : answer;
    },
    intervalMs,
    onDone: (report) => onDone?.(report),
  });

  useEffect(() => void loadValidators().catch(() => undefined), []);
  const validate = useMemo(
    () => async (values: Record<string, unknown>) => {
      await loadValidators();
      const checked = validateRecord(schemaRegistry, form.schemaId, values);
      return toFieldErrors({
        errors: { ...(check?.(checked.data as Record<string, unknown>) as typeof checked.errors), ...checked.errors },
      });
    },
    [form.schemaId, check],
  );

  const submit = async (values: Record<string, unknown>) => {
    setRefusal(undefined);
    await loadValidators();
    const query = validateRecord(schemaRegistry, form.schemaId, values).data;
    try {
      const answer = await gateway.call<{ request_id: string }>({
        method: 'GET',
        path,
        query: { ...query, opname: requestOpname },
      });
      requested.current = answer.request_id;
      job.start();
    } catch (error) {
      const fieldErrors = gatewayFieldErrors(error);
      setRefusal(fieldErrors ? translate('http.save_failed') : (error as Error).message);
      return fieldErrors && submissionErrors(fieldErrors);
    }
  };

  const headers = (column: string) => translate(`${columns}.${column}`, { _: column });
  const fileLabel = translate(title);
  const { state } = job;
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }} data-testid="report-page">
      <Title title={fileLabel} />
      <Typography component="h1" variant="h5" gutterBottom>
        {fileLabel}
      </Typography>
      <Card sx={{ mb: 2 }}>
        <CardContent>
          <ResourceContextProvider value={labels}>
            <Form record={initialValues} validate={validate} onSubmit={submit}>
              {refusal && (
                <Alert severity="error" sx={{ mb: 2 }}>
                  {refusal}
                </Alert>
              )}
              <Box
                sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, minmax(0, 1fr))' } }}
              >
                {form.fields.map((field) => (
                  <SchemaInput key={field.source} field={field} mode="create" />
                ))}
              </Box>
              <SaveButton
                label={translate('report.request')}
                icon={<span />}
                disabled={state.phase === 'running'}
                alwaysEnable={state.phase !== 'running'}
              />
            </Form>
          </ResourceContextProvider>
        </CardContent>
      </Card>
      <GatewayJobProgress job={job} label={fileLabel} />
      {state.phase === 'done' && summary?.(state.result)}
      {state.phase === 'done' && (
        <ReportResult
          key={state.result.expires_at}
          report={state.result}
          headers={headers}
          fileLabel={fileLabel}
          rowsPerPage={rowsPerPage}
          cellText={cellText}
          nowrap={nowrap}
        />
      )}
      {children}
    </Box>
  );
}
