import { useState } from 'react';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { CircularProgress } from '@mui/material';
import { Button, useLocaleState, useNotify, useRecordContext } from 'react-admin';
import { useGateway } from './gateway-api.ts';
import { downloadFileAnswer, type FileAnswer } from './download-file.ts';

export interface PdfDownloadProps {
  /** The react-admin resource whose `GET opname=pdf` makes the file. */
  resource: string;
  /** The query parameter naming the record, e.g. `service_point_id`. */
  idParam: string;
  /** Locale keys: the button, its label while the PDF is made, the failure (`%{message}`). */
  labels: { button: string; busy: string; failed: string };
  /** The opname making the file: `pdf`, or a location's `get_pdf`. */
  opname?: string;
}

/**
 * A record's PDF (spec 02 §7 `GET opname=pdf`: a service point's sheet, a ticket's), in the user's
 * language, downloaded from its edit page. The gateway makes it, which takes a moment: the button says so
 * and cannot be pressed twice meanwhile. The answer is base64 in JSON (`file_name`, `content_type`,
 * `data`): the signed gateway client reads JSON, and a plain link could not sign its request.
 */
export function PdfDownloadButton({ resource, idParam, labels, opname = 'pdf' }: PdfDownloadProps) {
  const record = useRecordContext();
  const dataProvider = useGateway();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  if (!record) return null;

  const make = async () => {
    setBusy(true);
    try {
      downloadFileAnswer(
        await dataProvider.action<FileAnswer>(resource, 'GET', opname, undefined, {
          [idParam]: String(record.id),
          lang: locale,
        }),
      );
    } catch (error) {
      notify(labels.failed, { type: 'error', messageArgs: { message: (error as Error).message } });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button label={busy ? labels.busy : labels.button} onClick={make} disabled={busy} aria-busy={busy}>
      {busy ? <CircularProgress size={18} /> : <PictureAsPdfIcon />}
    </Button>
  );
}
