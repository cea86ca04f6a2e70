import { useQuery } from '@tanstack/react-query';
import { Alert, CircularProgress, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { useGateway } from '../../schema/ui/gateway-api.ts';
import { fetchPieceLogs, shipmentKeys } from './piece-detail.ts';
import { dateTexts } from '../../schema/dates.ts';
import { historyValue } from '../../schema/ui/record-history.tsx';
import { ReferenceName } from '../../schema/ui/field-words.tsx';
import { ActorName } from '../../schema/ui/piece-events-table.tsx';

/** Keys of a log message that name a record: shown by its name, linked. */
const MESSAGE_REFERENCES: Record<string, string> = {
  hardware_id: 'hardware',
  service_point_id: 'service-points',
  carrier_id: 'carriers',
  courier_id: 'couriers',
  enduser_id: 'end-users',
};

/**
 * A log line's message in words: a JSON object (`{"hardware_id":43,"compartment_id":710}`) as its
 * labelled values, a record by its name; any other text as written.
 */
function LogMessage({ message }: { message: string }) {
  const translate = useTranslate();
  let parsed: unknown;
  try {
    parsed = message.trim().startsWith('{') ? JSON.parse(message) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return <>{message}</>;
  const entries = Object.entries(parsed as Record<string, unknown>).filter(
    ([, value]) => value !== null && value !== undefined && value !== '',
  );
  return (
    <>
      {entries.map(([key, value], index) => {
        const label = translate(`shipments.logs.keys.${key}`, { _: key.replace(/_id$/, '').replace(/_/g, ' ') });
        const reference = MESSAGE_REFERENCES[key];
        return (
          <span key={key}>
            {index > 0 && ', '}
            {label}{' '}
            {reference && (typeof value === 'number' || typeof value === 'string') ? (
              <ReferenceName resource={reference} id={value} />
            ) : (
              historyValue(value)
            )}
          </span>
        );
      })}
    </>
  );
}

/** A piece's log lines (`GET webtool/shipments/piece_logs`), newest first. */
export function PieceLogLines({ query }: { query: Record<string, string> }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useGateway();
  const dates = dateTexts(locale);
  const logs = useQuery({
    queryKey: shipmentKeys.logs(query),
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
            <TableCell>{dates.dateTime(line.at)}</TableCell>
            <TableCell>
              {line.event_code === null
                ? line.source
                : translate(`choices.piece_event.${line.event_code}`, { _: String(line.event_code) })}
            </TableCell>
            <TableCell>
              <ActorName actor={line.actor} />
            </TableCell>
            <TableCell sx={{ overflowWrap: 'anywhere' }}>
              <LogMessage message={line.message} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
