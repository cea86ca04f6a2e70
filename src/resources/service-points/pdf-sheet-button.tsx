import { useState } from 'react';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { CircularProgress } from '@mui/material';
import { Button, useDataProvider, useLocaleState, useNotify, useRecordContext } from 'react-admin';
import type { OpnameQuery } from './opname-query.ts';

interface PdfAnswer {
  file_name: string;
  content_type: string;
  data: string;
}

/** Hands the file to the browser as a download, then lets its memory go. */
function download(answer: PdfAnswer) {
  const bytes = Uint8Array.from(atob(answer.data), (character) => character.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: answer.content_type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = answer.file_name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The service point's PDF sheet (spec 02 §7 `GET opname=pdf`), in the user's language. The gateway
 * makes it, which takes a moment: the button says so and cannot be pressed twice meanwhile.
 */
export function PdfSheetButton() {
  const record = useRecordContext();
  const dataProvider = useDataProvider() as unknown as OpnameQuery;
  const [locale] = useLocaleState();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  if (!record) return null;

  const make = async () => {
    setBusy(true);
    try {
      download(
        await dataProvider.action<PdfAnswer>('service-points', 'GET', 'pdf', undefined, {
          service_point_id: String(record.id),
          lang: locale,
        }),
      );
    } catch (error) {
      notify('service_points.pdf.failed', { type: 'error', messageArgs: { message: (error as Error).message } });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button
      label={busy ? 'service_points.pdf.busy' : 'service_points.pdf.button'}
      onClick={make}
      disabled={busy}
      aria-busy={busy}
    >
      {busy ? <CircularProgress size={18} /> : <PictureAsPdfIcon />}
    </Button>
  );
}
