import { GatewayReport } from '../../schema/ui/gateway-report.tsx';

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The shipment reports (spec 02 §4, §7): parcels, events or inventory of a period, requested from
 * `webtool/shipments`, polled, shown and downloaded as CSV. Reached as /shipments/reports (when the
 * shipment-report option is on) and /reports.
 */
export function ShipmentReportsPage() {
  const today = new Date();
  const weekAgo = new Date(today.getTime() - 7 * 24 * 60 * 60 * 1000);
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
    />
  );
}
