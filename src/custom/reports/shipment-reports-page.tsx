import { useTranslate } from 'react-admin';
import { GatewayReport } from '../../schema/ui/gateway-report.tsx';
import { PieceEvent } from '../../types/generated/codes.ts';

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

const eventCodes: Readonly<Record<string, number>> = PieceEvent;

/**
 * The shipment reports (spec 02 §4, §7): parcels, events or inventory of a period, requested from
 * `webtool/shipments`, polled, shown and downloaded as CSV. Reached as /shipments/reports (when the
 * shipment-report option is on) and /reports. The file names events, parcel types, reservations and
 * yes/no in the gateway's words; the table and the CSV read them in the user's language.
 */
export function ShipmentReportsPage() {
  const translate = useTranslate();
  const today = new Date();
  const weekAgo = new Date(today.getTime() - 7 * 24 * 60 * 60 * 1000);
  const cellText = (column: string, row: Readonly<Record<string, string>>) => {
    const value = row[column];
    if (!value) return undefined;
    const choice = (key: string) => translate(`choices.${key}.${value}`, { _: value });
    switch (column) {
      case 'state':
      case 'event': {
        const code = eventCodes[value] ?? (column === 'event' ? Number(row.event_code) : undefined);
        return code ? translate(`choices.piece_event.${code}`, { _: value }) : undefined;
      }
      case 'piece_type':
        return choice('piece_type');
      case 'reservation':
        return choice('piece_reservation');
      case 'test_piece':
      case 'active':
        return value === 'yes' ? translate('table.yes') : value === 'no' ? translate('table.no') : undefined;
      default:
        return undefined;
    }
  };
  return (
    <GatewayReport
      endpoint="shipments"
      requestOpname="reports"
      fileOpname="report_file"
      form="shipment-report-request"
      labels="shipment-reports"
      title="reports.shipments.title"
      columns="reports.shipments.columns"
      initialValues={{ kind: 'generate_parcels_rpt', from_date: isoDay(weekAgo), to_date: isoDay(today) }}
      cellText={cellText}
    />
  );
}
