import { useState, type ChangeEvent } from 'react';
import { Box, Button, FormHelperText, Stack, Typography } from '@mui/material';
import UploadIcon from '@mui/icons-material/Upload';
import DeleteIcon from '@mui/icons-material/Delete';
import {
  useNotify,
  useRecordContext,
  useRefresh,
  useResourceContext,
  useTranslate,
  useTranslateLabel,
} from 'react-admin';
import { useGateway } from '../../schema/ui/gateway-api.ts';
import type { InputKindProps } from '../../schema/ui/input-kinds.tsx';
import { createSvgSanitiser, svgFileProblem, SVG_CONTENT_TYPE, SVG_MESSAGES } from '../../schema/svg-upload.ts';

let sanitiser: ((text: string) => string | undefined) | undefined;
const sanitiseSvg = (text: string) => (sanitiser ??= createSvgSanitiser(window))(text);

function base64Of(bytes: Uint8Array) {
  let binary = '';
  // In slices: spreading a whole megabyte into fromCharCode overflows the call stack.
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}

const IMAGE_SIZE = { maxHeight: 96, maxWidth: 240 };

/**
 * `x-input.kind: "svg-upload"` on a readOnly URL field: shows the stored image and replaces or removes it
 * at once, outside the form's save (`PUT webtool/<endpoint>`, `DELETE` with `x-input.removeOpname`). A chosen
 * file is checked and sanitised here first, so the preview never shows anything unsanitised; the gateway
 * checks and sanitises again before storing.
 */
export function SvgUploadInput({ field }: Pick<InputKindProps, 'field'>) {
  const record = useRecordContext();
  const resource = useResourceContext() ?? '';
  const translate = useTranslate();
  const translateLabel = useTranslateLabel();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useGateway();
  const [chosen, setChosen] = useState<{ file: File; preview: string }>();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (record?.id === undefined) return null;

  const recordId = record.id;
  const label = translateLabel({ source: field.source, resource }) as string;
  const current = typeof record[field.source] === 'string' ? (record[field.source] as string) : undefined;
  const removeOpname = typeof field.input.removeOpname === 'string' ? field.input.removeOpname : undefined;
  // The record reloads after an upload; the form keeps what was typed meanwhile (schema-form.tsx).
  const locked = busy;

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Choosing the same file again after a refusal must still be noticed.
    event.target.value = '';
    setChosen(undefined);
    if (!file) return;
    const fileProblem = svgFileProblem(file);
    const clean = fileProblem ? undefined : sanitiseSvg(await file.text());
    if (clean === undefined) {
      setProblem(translate(fileProblem ?? SVG_MESSAGES.invalid));
      return;
    }
    setProblem(undefined);
    setChosen({ file, preview: `data:${SVG_CONTENT_TYPE};charset=utf-8,${encodeURIComponent(clean)}` });
  }

  async function send(work: () => Promise<unknown>, done: string) {
    setBusy(true);
    try {
      await work();
      setChosen(undefined);
      setProblem(undefined);
      notify(done, { type: 'success' });
      refresh();
    } catch (error) {
      // The gateway client has already translated the catalogue message.
      setProblem((error as Error).message);
    } finally {
      setBusy(false);
    }
  }

  const upload = (file: File) =>
    send(async () => {
      const data = base64Of(new Uint8Array(await file.arrayBuffer()));
      await dataProvider.put(resource, {
        id: recordId,
        data: { file_name: file.name, content_type: file.type, data },
      });
    }, 'upload.uploaded');

  const remove = (opname: string) =>
    send(() => dataProvider.deleteOpname(resource, { id: recordId, opname }), 'upload.removed');

  return (
    <Box component="section" aria-label={label} sx={{ my: 1 }}>
      <Typography variant="subtitle2" component="h3">
        {label}
      </Typography>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', my: 1 }}>
        {current ? (
          <img src={current} alt={translate('upload.current', { field: label })} style={IMAGE_SIZE} />
        ) : (
          <Typography variant="body2" color="text.secondary">
            {translate('upload.none')}
          </Typography>
        )}
        {chosen && (
          <img src={chosen.preview} alt={translate('upload.preview', { name: chosen.file.name })} style={IMAGE_SIZE} />
        )}
      </Stack>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
        {chosen ? (
          <>
            <Button variant="contained" onClick={() => upload(chosen.file)} disabled={locked}>
              {translate('upload.save')}
            </Button>
            <Button onClick={() => setChosen(undefined)} disabled={busy}>
              {translate('ra.action.cancel')}
            </Button>
          </>
        ) : (
          <Button component="label" variant="outlined" startIcon={<UploadIcon />} disabled={locked}>
            {translate('upload.choose')}
            <input type="file" accept=".svg,image/svg+xml" hidden disabled={locked} onChange={choose} />
          </Button>
        )}
        {current && removeOpname && !chosen && (
          <Button color="error" startIcon={<DeleteIcon />} onClick={() => remove(removeOpname)} disabled={locked}>
            {translate('upload.remove')}
          </Button>
        )}
      </Stack>
      <FormHelperText error={Boolean(problem)} role={problem ? 'alert' : undefined}>
        {problem ?? translate('upload.svg_hint')}
      </FormHelperText>
    </Box>
  );
}
