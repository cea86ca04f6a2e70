import { useCallback, useEffect, useState } from 'react';
import DownloadIcon from '@mui/icons-material/Download';
import {
  Alert,
  Button,
  Card,
  CardContent,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { useGateway } from '../../schema/ui/gateway-api.ts';
import { GatewayReport } from '../../schema/ui/gateway-report.tsx';
import { CSV_POLL_MS } from '../../schema/ui/gateway-job.tsx';
import { dateTexts } from '../../schema/dates.ts';
import { downloadFileAnswer } from '../../schema/ui/download-file.ts';
import { INVOICING_ENDPOINT, invoicingApi, type InvoiceHead } from './api.ts';

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** Last month, first to last day: the period an invoice run usually covers. */
function lastMonth(now = new Date()) {
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return { from_date: isoDay(from), to_date: isoDay(to) };
}

/** The invoices already made (`opname=invoice_log`), newest period first, each with its PDF and CSV. */
function InvoiceLog({ reload }: { reload: number }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dates = dateTexts(locale);
  const notify = useNotify();
  const gateway = useGateway();
  const [rows, setRows] = useState<InvoiceHead[]>();
  const [failed, setFailed] = useState<string>();
  useEffect(() => {
    let live = true;
    invoicingApi(gateway)
      .log()
      .then((data) => live && setRows(data))
      .catch((error: Error) => live && setFailed(error.message));
    return () => {
      live = false;
    };
  }, [gateway, reload]);
  const download = async (invoice: InvoiceHead, kind: 'pdf' | 'csv') => {
    try {
      downloadFileAnswer(await invoicingApi(gateway).download(invoice, kind, locale));
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };
  const money = (value: number, currency: string) =>
    new Intl.NumberFormat(locale, { style: 'currency', currency }).format(value);
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent>
        <Typography component="h2" variant="h6" gutterBottom>
          {translate('invoicing.log')}
        </Typography>
        {failed && <Alert severity="error">{failed}</Alert>}
        {rows && rows.length === 0 && <Alert severity="info">{translate('invoicing.no_invoices')}</Alert>}
        {rows && rows.length > 0 && (
          <TableContainer sx={{ maxHeight: 520 }}>
            <Table size="small" stickyHeader aria-label={translate('invoicing.log')}>
              <TableHead>
                <TableRow>
                  {['invoice_number', 'carrier', 'period', 'pieces', 'net_total', 'total', 'issued', 'files'].map(
                    (column) => (
                      <TableCell key={column}>{translate(`invoicing.columns.${column}`)}</TableCell>
                    ),
                  )}
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((invoice) => (
                  <TableRow key={invoice.invoice_id}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{invoice.invoice_number}</TableCell>
                    <TableCell>{invoice.carrier_name ?? '-'}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {dates.date(invoice.from_date)} – {dates.date(invoice.to_date)}
                    </TableCell>
                    <TableCell align="right">{invoice.pieces}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {money(invoice.net_total, invoice.currency)}
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {money(invoice.total, invoice.currency)}
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{dates.date(invoice.created_at)}</TableCell>
                    <TableCell>
                      <Stack direction="row" spacing={1}>
                        <Button
                          size="small"
                          startIcon={<DownloadIcon />}
                          onClick={() => void download(invoice, 'pdf')}
                          aria-label={translate('invoicing.download_pdf_of', { number: invoice.invoice_number })}
                        >
                          PDF
                        </Button>
                        <Button
                          size="small"
                          startIcon={<DownloadIcon />}
                          onClick={() => void download(invoice, 'csv')}
                          aria-label={translate('invoicing.download_csv_of', { number: invoice.invoice_number })}
                        >
                          CSV
                        </Button>
                      </Stack>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * The invoicing report (issue 26 item 5, spec 02 §7 `invoicing`): choose carriers and a period, request
 * `generate_invoice`, follow it by request id (`opname=find`, every 3000 ms), see the invoices made, and
 * download any invoice's PDF or CSV from the log. Reached as /invoicing-report and /reports/carrier-invoicing.
 */
export function InvoicingReportPage() {
  const [reload, setReload] = useState(0);
  const done = useCallback(() => setReload((count) => count + 1), []);
  return (
    <GatewayReport
      endpoint={INVOICING_ENDPOINT}
      requestOpname="generate_invoice"
      fileOpname="find"
      form="invoice-request"
      labels="invoices"
      title="invoicing.title"
      columns="invoicing.columns"
      initialValues={lastMonth()}
      intervalMs={CSV_POLL_MS}
      onDone={done}
    >
      <InvoiceLog reload={reload} />
    </GatewayReport>
  );
}
