import { useMemo, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Paper,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tabs,
  Typography,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Title, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { GENERATOR, generatorKeys, STATUS_COLOURS, useGeneratorCall, type Report } from './generator-api.ts';
import { dateTexts } from '../../schema/dates.ts';

/** `/location-generator` (issue 29.4): the location reports with their status, opened or archived from here. */
export function ReportsPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const call = useGeneratorCall();
  const queryClient = useQueryClient();
  const [locale] = useLocaleState();
  const [archived, setArchived] = useState(false);
  const reports = useQuery({
    queryKey: generatorKeys.reportList(archived),
    queryFn: async () =>
      (
        await call<{ data: Report[] }>({
          method: 'GET',
          path: `${GENERATOR}/reports`,
          query: { archived: String(archived) },
        })
      ).data,
    // A report being made moves on by itself.
    refetchInterval: (query) =>
      query.state.data?.some((report) => report.status === 'queued' || report.status === 'running') ? 1500 : false,
  });
  const archive = useMutation({
    mutationFn: (report: Report) =>
      call({
        method: 'PATCH',
        path: `${GENERATOR}/reports`,
        body: { report_id: report.report_id, opname: archived ? 'unarchive' : 'archive' },
      }),
    onSuccess: async () => {
      notify('location_generator.archived', { type: 'info' });
      await queryClient.invalidateQueries({ queryKey: generatorKeys.reports() });
    },
    onError: (error: Error) => notify(error.message, { type: 'error' }),
  });
  // The app's one date format per language (src/schema/dates.ts), as the lists write moments.
  const dates = useMemo(() => dateTexts(locale), [locale]);
  const date = (value: string | null) => (value ? dates.dateTime(value) : '—');

  return (
    <Box data-testid="own-list-page">
      <Title title={translate('location_generator.reports')} />
      <Tabs value={archived ? 1 : 0} onChange={(_event, value) => setArchived(value === 1)} sx={{ mb: 2 }}>
        <Tab label={translate('location_generator.active_reports')} />
        <Tab label={translate('location_generator.archived_reports')} />
      </Tabs>
      {reports.isError && <Alert severity="error">{(reports.error as Error).message}</Alert>}
      {reports.data?.length === 0 && (
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Typography>{translate('location_generator.no_reports')}</Typography>
          <Button component={Link} to="/location-generator/create-report" variant="contained" sx={{ mt: 2 }}>
            {translate('location_generator.create_report')}
          </Button>
        </Paper>
      )}
      {Boolean(reports.data?.length) && (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label={translate('location_generator.reports')}>
            <TableHead>
              <TableRow>
                <TableCell>{translate('location_generator.name')}</TableCell>
                <TableCell>{translate('location_generator.areas_of_report')}</TableCell>
                <TableCell>{translate('location_generator.status')}</TableCell>
                <TableCell align="right">{translate('location_generator.locations')}</TableCell>
                <TableCell align="right">{translate('location_generator.converted')}</TableCell>
                <TableCell>{translate('location_generator.created')}</TableCell>
                <TableCell>{translate('location_generator.by')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {reports.data?.map((report) => (
                <TableRow key={report.report_id} hover data-testid="generator-report-row">
                  <TableCell>
                    <Link to={`/location-generator/locations?report=${report.report_id}`}>{report.name}</Link>
                  </TableCell>
                  <TableCell>{report.area_names ?? '—'}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={STATUS_COLOURS[report.status]}
                      label={translate(`location_generator.statuses.${report.status}`)}
                    />
                  </TableCell>
                  <TableCell align="right">{report.locations}</TableCell>
                  <TableCell align="right">{report.converted}</TableCell>
                  <TableCell>{date(report.created_at)}</TableCell>
                  <TableCell>{report.created_by}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Button
                      size="small"
                      component={Link}
                      to={`/location-generator/locations?report=${report.report_id}`}
                    >
                      {translate('location_generator.open')}
                    </Button>
                    <Button size="small" onClick={() => archive.mutate(report)} disabled={archive.isPending}>
                      {translate(archived ? 'location_generator.unarchive' : 'location_generator.archive')}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}
