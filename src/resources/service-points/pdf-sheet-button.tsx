import { PdfDownloadButton } from '../../schema/ui/pdf-download-button.tsx';

const labels = {
  button: 'service_points.pdf.button',
  busy: 'service_points.pdf.busy',
  failed: 'service_points.pdf.failed',
};

/** The service point's PDF sheet (spec 02 §7 `GET opname=pdf`), in the user's language. */
export function PdfSheetButton() {
  return <PdfDownloadButton resource="service-points" idParam="service_point_id" labels={labels} />;
}
