import { PdfDownloadButton } from '../../schema/ui/pdf-download-button.tsx';

const labels = {
  button: 'location_proposals.pdf.button',
  busy: 'location_proposals.pdf.busy',
  failed: 'location_proposals.pdf.failed',
};

/** The location's PDF sheet (spec 02 §7 `GET opname=get_pdf`), in the user's language. */
export function LocationPdfButton() {
  return <PdfDownloadButton resource="locations" idParam="location_id" labels={labels} opname="get_pdf" />;
}
