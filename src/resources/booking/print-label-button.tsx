import PrintIcon from '@mui/icons-material/Print';
import { Button, useNotify, useRecordContext, useRedirect } from 'react-admin';
import { useOpenLabels } from './booking-labels.ts';

/** Prints a booking's label again (its cached label data lasts 30 minutes, spec 01 §4). */
export function PrintLabelButton() {
  const record = useRecordContext();
  const openLabels = useOpenLabels();
  const redirect = useRedirect();
  const notify = useNotify();
  if (!record) return null;
  const print = () => openLabels(record).then(redirect, (error: Error) => notify(error.message, { type: 'error' }));
  return <Button label="booking.print_label" startIcon={<PrintIcon />} onClick={() => void print()} />;
}
