import type { ReactNode } from 'react';
import { Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { dateTexts } from '../dates.ts';
import { ReferenceName } from './field-words.tsx';

/** One event of a piece's timeline, as the gateway answers it (piece detail, an end user's pieces). */
export interface PieceEventRow {
  id: number | string;
  event_code: number;
  at: string;
  /** `courier:3`, `enduser:1408`, a webtool user name, `system`. */
  actor: string | null;
  details?: Record<string, unknown>;
}

/** Who an actor `<kind>:<id>` names: the resource whose record it is. */
const ACTOR_RESOURCES: Record<string, string> = {
  courier: 'couriers',
  carrier: 'carriers',
  enduser: 'end-users',
  end_user: 'end-users',
  operator: 'operators',
};

/** Who did it, in words: "Courier Jane Doe" (linked) rather than `courier:3`; a user name as it is. */
export function ActorName({ actor }: { actor: string | null | undefined }) {
  const translate = useTranslate();
  if (!actor) return <>-</>;
  const [kind, id] = actor.split(':');
  const resource = id ? ACTOR_RESOURCES[kind] : undefined;
  if (!resource) return <>{actor}</>;
  return (
    <>
      {translate(`resources.${resource}.name`, { smart_count: 1, _: kind })}{' '}
      <ReferenceName resource={resource} id={id} />
    </>
  );
}

/**
 * A piece's events, newest as the gateway orders them: when (the language's format), what (the event's
 * name), who (a name, not a code) and, when given, the details. One table for the parcel page and for
 * an end user's pieces (issue 24.2).
 */
export function PieceEventsTable({
  events,
  label,
  details,
}: {
  events: readonly PieceEventRow[];
  label: string;
  /** What an event's details say, in words; no column when left out. */
  details?: (event: PieceEventRow) => ReactNode;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dates = dateTexts(locale);
  return (
    <Table size="small" aria-label={label}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('shipments.detail.at')}</TableCell>
          <TableCell>{translate('shipments.detail.event')}</TableCell>
          <TableCell>{translate('shipments.detail.actor')}</TableCell>
          {details && <TableCell>{translate('shipments.detail.details')}</TableCell>}
        </TableRow>
      </TableHead>
      <TableBody>
        {events.map((event) => (
          <TableRow key={event.id}>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{dates.dateTime(event.at)}</TableCell>
            <TableCell>
              {translate(`choices.piece_event.${event.event_code}`, { _: String(event.event_code) })}
            </TableCell>
            <TableCell>
              <ActorName actor={event.actor} />
            </TableCell>
            {details && <TableCell>{details(event) || '-'}</TableCell>}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
