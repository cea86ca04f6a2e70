import { PdfDownloadButton } from '../../schema/ui/pdf-download-button.tsx';

const labels = { button: 'tickets.pdf.button', busy: 'tickets.pdf.busy', failed: 'tickets.pdf.failed' };

/** The ticket's job sheet (spec 02 §7 `GET maintenance/tickets?opname=pdf`), in the user's language. */
export function TicketPdfButton() {
  return <PdfDownloadButton resource="tickets" idParam="ticket_id" labels={labels} />;
}
