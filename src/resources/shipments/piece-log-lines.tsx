import { useQuery } from '@tanstack/react-query';
import { Alert, CircularProgress, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import { fetchPieceLogs } from './piece-detail.ts';

/** A piece's log lines (`GET webtool/shipments/piece_logs`), newest first. */
export function PieceLogLines({ query }: { query: Record<string, string> }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider();
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' });
  const logs = useQuery({
    queryKey: ['shipments', 'logs', query],
    retry: false,
    queryFn: () => fetchPieceLogs(dataProvider, query),
  });
  if (logs.error) return <Alert severity="error">{translate((logs.error as Error).message)}</Alert>;
  if (!logs.data) return <CircularProgress size={18} />;
  if (!logs.data.lines.length) return <Typography>{translate('shipments.logs.empty')}</Typography>;
  return (
    <Table size="small" aria-label={translate('shipments.logs.title')}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('shipments.detail.at')}</TableCell>
          <TableCell>{translate('shipments.logs.source')}</TableCell>
          <TableCell>{translate('shipments.detail.actor')}</TableCell>
          <TableCell>{translate('shipments.logs.message')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {logs.data.lines.map((line, index) => (
          <TableRow key={index}>
            <TableCell>{dateTime.format(new Date(line.at))}</TableCell>
            <TableCell>
              {line.event_code === null
                ? line.source
                : `${line.event_code} ${translate(`choices.piece_event.${line.event_code}`)}`}
            </TableCell>
            <TableCell>{line.actor ?? '-'}</TableCell>
            <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{line.message}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
