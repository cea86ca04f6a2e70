import { useCallback, useState } from 'react';
import DownloadIcon from '@mui/icons-material/Download';
import { Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { useGateway } from '../../schema/ui/gateway-api.ts';
import { GatewayReport, type ReportFile } from '../../schema/ui/gateway-report.tsx';
import { dateTexts } from '../../schema/dates.ts';
import { periodErrors, type LicencePeriod } from '../../contract/licence-period.ts';
import { downloadFileAnswer } from '../../schema/ui/download-file.ts';
import { LICENCE_ENDPOINT, licenceApi } from './api.ts';

interface LicenceAnswer {
  owners: string[];
  from: string;
  to: string;
  period_days: number;
  totals: { units: number; licence_days: number; no_fee: number; terminated: number; pending: number };
}

const DAY_COLUMNS = ['licence_days', 'no_fee', 'terminated', 'pending'] as const;

/** The calendar quarter before the current one: the period a licence statement usually covers. */
export function lastQuarter(now = new Date()): LicencePeriod {
  const quarterStart = Math.floor(now.getMonth() / 3) * 3;
  const from = new Date(now.getFullYear(), quarterStart - 3, 1);
  const to = new Date(now.getFullYear(), quarterStart - 1, 1);
  return {
    from_year: from.getFullYear(),
    from_month: from.getMonth() + 1,
    to_year: to.getFullYear(),
    to_month: to.getMonth() + 1,
  };
}

/** The search's owners, period and totals, how they are counted, and its PDF. */
function LicenceSummary({ report }: { report: ReportFile }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dates = dateTexts(locale);
  const notify = useNotify();
  const gateway = useGateway();
  const [busy, setBusy] = useState(false);
  const answer = report.answer as unknown as LicenceAnswer | undefined;
  if (!answer?.totals) return null;
  const number = new Intl.NumberFormat(locale);
  const pdf = async () => {
    setBusy(true);
    try {
      downloadFileAnswer(await licenceApi(gateway).pdf(report.request_id, locale));
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card sx={{ mb: 2 }} data-testid="licence-totals">
      <CardContent>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', mb: 1 }}>
          <div>
            <Typography component="h2" variant="h6">
              {translate('licences.totals')}
            </Typography>
            <Typography variant="body2">{answer.owners.join(', ')}</Typography>
            <Typography variant="body2">
              {translate('licences.period', {
                from: dates.date(answer.from),
                to: dates.date(answer.to),
                days: answer.period_days,
              })}
            </Typography>
          </div>
          <div>
            <Button variant="outlined" startIcon={<DownloadIcon />} onClick={() => void pdf()} disabled={busy}>
              {translate('licences.download_pdf')}
            </Button>
          </div>
        </Stack>
        <Box
          component="dl"
          aria-label={translate('licences.totals')}
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(5, minmax(0, 1fr))' },
            gap: 1.5,
            m: 0,
            maxWidth: 900,
          }}
        >
          <div>
            <Typography component="dt" variant="body2" color="text.secondary">
              {translate('resources.licences.fields.hardware_id')}
            </Typography>
            <Typography component="dd" variant="h6" sx={{ m: 0 }}>
              {translate('licences.total_units', { smart_count: answer.totals.units })}
            </Typography>
          </div>
          {DAY_COLUMNS.map((column) => (
            <div key={column}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {translate(`licences.columns.${column}`)}
              </Typography>
              <Typography
                component="dd"
                variant="h6"
                sx={{ m: 0, fontWeight: column === 'licence_days' ? 700 : undefined }}
              >
                {number.format(answer.totals[column])}
              </Typography>
            </div>
          ))}
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {translate('licences.explain')}
        </Typography>
      </CardContent>
    </Card>
  );
}

/** A unit's name (DK00078-1) reads whole, never broken at its hyphen. */
const NOWRAP = ['hardware_name'] as const;

/**
 * The hardware licence search (issue 27.6, spec 02 §7 `hardware/license`): hardware owners and a period of
 * whole months ending before the current one; a row per unit with its licence days and its days in the
 * other badges, the totals, the CSV of the rows and the PDF of the whole. Reached as /license.
 */
export function LicencePage() {
  const check = useCallback(
    (values: Record<string, unknown>) => periodErrors(values as Partial<LicencePeriod>, new Date()),
    [],
  );
  const summary = useCallback((report: ReportFile) => <LicenceSummary report={report} />, []);
  return (
    <GatewayReport
      endpoint={LICENCE_ENDPOINT}
      requestOpname="search"
      fileOpname="find"
      form="licence-request"
      labels="licences"
      title="licences.title"
      columns="licences.columns"
      nowrap={NOWRAP}
      initialValues={{ hardware_owners: [], ...lastQuarter() }}
      check={check}
      summary={summary}
    />
  );
}
