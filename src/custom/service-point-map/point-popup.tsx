import { Link } from 'react-router-dom';
import type { MapPoint } from '../../contract/service-point-map.ts';
import type { NetworkMapProps } from './network-map.tsx';

/** A point's popup: its name, status, open alerts and tickets, and a link opening it. */
export function PointPopup({ point, words }: { point: MapPoint; words: NetworkMapProps['words'] }) {
  return (
    <div data-testid="network-popup">
      <strong>{point.name}</strong>
      <div>{words.status(point.status)}</div>
      {point.open_alerts !== null && <div>{words.alerts(point.open_alerts)}</div>}
      {point.open_tickets !== null && <div>{words.tickets(point.open_tickets)}</div>}
      <Link to={`/service-points/${point.id}/show`}>{words.open}</Link>
    </div>
  );
}
