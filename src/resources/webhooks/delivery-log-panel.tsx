import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useQuery } from '@tanstack/react-query';
import { useLocaleState, useRecordContext, useTranslate } from 'react-admin';
import { useGateway } from '../../schema/ui/gateway-api.ts';
import { dateTexts } from '../../schema/dates.ts';
import type { TabPanelProps } from '../../schema/ui/tab-panels.tsx';

/** One delivery attempt, as `GET alerts/webhooks?opname=logs` answers it. */
interface Attempt {
  id: number;
  at: string;
  outcome: 'sending' | 'delivered' | 'http_error' | 'timeout' | 'network_error' | 'refused' | 'interrupted';
  http_status: number | null;
  duration_ms: number | null;
  response_excerpt: string | null;
  url: string | null;
}

const OUTCOME_COLOR: Record<Attempt['outcome'], 'success' | 'error' | 'warning' | 'info' | 'default'> = {
  delivered: 'success',
  http_error: 'error',
  timeout: 'error',
  network_error: 'error',
  refused: 'warning',
  interrupted: 'warning',
  sending: 'info',
};

/** The delivery log of a webhook event (spec 02 §7 `logs GET`): each attempt, newest first. */
export function DeliveryLogPanel({ model }: TabPanelProps) {
  const record = useRecordContext();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dates = dateTexts(locale);
  const dataProvider = useGateway();
  const eventId = record?.event_id as number | undefined;
  // A phone reads each attempt as a small card rather than a table wider than the screen.
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const { data, isPending, error, refetch, isFetching } = useQuery({
    queryKey: ['webhook-log', eventId],
    enabled: eventId !== undefined,
    queryFn: () =>
      dataProvider.call<{ data: Attempt[] }>({
        method: 'GET',
        path: `webtool/${model.endpoint}`,
        query: { opname: 'logs', event_id: String(eventId) },
      }),
  });
  if (isPending) return <CircularProgress size={24} aria-label={translate('ra.page.loading')} />;
  if (error) return <Alert severity="error">{(error as Error).message}</Alert>;
  const attempts = data?.data ?? [];
  return (
    <Box data-testid="webhook-delivery-log">
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1 }}>
        <Button startIcon={<RefreshIcon />} onClick={() => void refetch()} disabled={isFetching}>
          {translate('webhooks.log.refresh')}
        </Button>
      </Box>
      {attempts.length === 0 ? (
        <Typography color="text.secondary">{translate('webhooks.log.empty')}</Typography>
      ) : narrow ? (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {attempts.map((attempt) => (
            <Box component="li" key={attempt.id} sx={{ py: 1, borderBottom: 1, borderColor: 'divider' }}>
              <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 1 }}>
                <Typography variant="body2">{dates.dateTime(attempt.at)}</Typography>
                <Chip
                  size="small"
                  variant="outlined"
                  color={OUTCOME_COLOR[attempt.outcome]}
                  label={translate(`webhooks.outcome.${attempt.outcome}`)}
                />
              </Box>
              <Typography variant="body2" color="text.secondary">
                {translate('webhooks.log.http_status')}: {attempt.http_status ?? '—'} ·{' '}
                {attempt.duration_ms === null
                  ? '—'
                  : translate('webhooks.log.duration_ms', { ms: attempt.duration_ms })}
              </Typography>
              {attempt.response_excerpt && (
                <Typography
                  variant="body2"
                  sx={{ fontFamily: 'monospace', fontSize: 12, overflowWrap: 'anywhere', mt: 0.5 }}
                >
                  {attempt.response_excerpt}
                </Typography>
              )}
            </Box>
          ))}
        </Box>
      ) : (
        <TableContainer>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{translate('webhooks.log.at')}</TableCell>
                <TableCell>{translate('webhooks.log.outcome')}</TableCell>
                <TableCell>{translate('webhooks.log.http_status')}</TableCell>
                <TableCell align="right">{translate('webhooks.log.duration')}</TableCell>
                <TableCell>{translate('webhooks.log.response')}</TableCell>
                <TableCell>{translate('webhooks.log.url')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {attempts.map((attempt) => (
                <TableRow key={attempt.id}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{dates.dateTime(attempt.at)}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      variant="outlined"
                      color={OUTCOME_COLOR[attempt.outcome]}
                      label={translate(`webhooks.outcome.${attempt.outcome}`)}
                    />
                  </TableCell>
                  <TableCell>{attempt.http_status ?? '—'}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {attempt.duration_ms === null
                      ? '—'
                      : translate('webhooks.log.duration_ms', { ms: attempt.duration_ms })}
                  </TableCell>
                  <TableCell sx={{ maxWidth: 360, overflowWrap: 'anywhere', fontFamily: 'monospace', fontSize: 12 }}>
                    {attempt.response_excerpt ?? ''}
                  </TableCell>
                  <TableCell sx={{ maxWidth: 280, overflowWrap: 'anywhere' }}>{attempt.url ?? ''}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}
