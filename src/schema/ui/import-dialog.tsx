import { useRef, useState, type ChangeEvent } from 'react';
import {
  Alert,
  Button as MuiButton,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  LinearProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Switch,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useLocaleState, useNotify, useRefresh, useTranslate } from 'react-admin';
import { useGateway } from './gateway-api.ts';
import {
  importFile,
  LIST_SEPARATOR,
  rowErrorKind,
  validityOf,
  type ImportCounts,
  type ImportResult,
  type ImportRow,
  type RowValidity,
} from '../bulk-import.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import type { ResourceModel } from '../resource-model.ts';
import { importVocabulary, type ShownNames } from './import-vocabulary.ts';
import { useLocalPages } from './local-pages.tsx';
import { loadValidators, schemaRegistry } from './registry.ts';

const PAGE_SIZE = 25;

type RowErrorsBody = Pick<ErrorBody, 'row_errors'>;

const chipColor: Record<RowValidity, 'success' | 'error' | 'warning'> = {
  valid: 'success',
  invalid: 'error',
  repeated: 'warning',
};

/** The gateway's row errors, put on the preview rows they belong to. */
function withServerErrors(result: ImportResult, body: RowErrorsBody): ImportResult {
  const rows = result.rows.map((row) => ({ ...row, errors: { ...row.errors } }));
  for (const { index, errors } of body.row_errors ?? []) {
    const row = rows[index];
    if (!row) continue;
    for (const [field, error] of Object.entries(errors))
      row.errors[field] = { ...error, kind: rowErrorKind(error.message) };
    row.validity = validityOf(row.errors);
  }
  return { ...result, rows };
}

/** A preview cell as text; a list shows as it was written in the file. */
const cellText = (value: unknown) =>
  value === undefined ? '' : Array.isArray(value) ? value.join(`${LIST_SEPARATOR} `) : String(value);

/** Row counts with each number's own plural: "1 invalid", "2 invalides". */
function countsText(translate: ReturnType<typeof useTranslate>, counts: ImportCounts) {
  const count = (key: keyof ImportCounts) => translate(`import.count.${key}`, { smart_count: counts[key] });
  return translate('import.counts', {
    rows: count('rows'),
    valid: count('valid'),
    invalid: count('invalid'),
    repeated: count('repeated'),
  });
}

/** The import dialog: the file chosen, checked and previewed, then sent. Loaded by import-button.tsx. */
export function ImportDialog({
  model,
  open,
  setOpen,
}: {
  model: ResourceModel;
  open: boolean;
  setOpen: (open: boolean) => void;
}) {
  const dataProvider = useGateway();
  const queryClient = useQueryClient();
  const [locale] = useLocaleState();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const input = useRef<HTMLInputElement>(null);
  const [fileName, setFileName] = useState<string>();
  const [progress, setProgress] = useState<number>();
  const [result, setResult] = useState<ImportResult>();
  const { shown, pagination, toFirstPage } = useLocalPages(result?.rows ?? [], PAGE_SIZE);
  const [saving, setSaving] = useState(false);
  const [toggleOn, setToggleOn] = useState(false);
  const [shownNames, setShownNames] = useState<ShownNames>({});

  const reset = () => {
    setResult(undefined);
    setFileName(undefined);
    setProgress(undefined);
    toFirstPage();
    if (input.current) input.current.value = '';
  };

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setResult(undefined);
    toFirstPage();
    setFileName(file?.name);
    setProgress(0);
    try {
      const { vocabulary, shownNames: names } = await importVocabulary(
        model,
        translate,
        locale,
        dataProvider,
        queryClient,
      );
      setShownNames(names);
      await loadValidators();
      setResult(
        await importFile(file, {
          registry: schemaRegistry,
          schemaId: model.schemaId,
          onProgress: setProgress,
          vocabulary,
        }),
      );
    } catch {
      setResult({
        state: 'invalid_content',
        message: 'import.state.invalid_content',
        rows: [],
        counts: { rows: 0, valid: 0, invalid: 0, repeated: 0 },
      });
    } finally {
      setProgress(undefined);
    }
  };

  const send = async () => {
    if (!result) return;
    setSaving(true);
    try {
      const answer = await dataProvider.action<{ imported: number }>(model.name, 'POST', 'bulk_import', {
        data: result.rows.map((row) => row.data),
        fileName,
        import_from: 'csv',
        ...(model.importToggle && { is_toggle_enabled: toggleOn }),
      });
      notify('import.done', { type: 'success', messageArgs: { smart_count: answer.imported } });
      setOpen(false);
      reset();
      refresh();
    } catch (error) {
      const body = (error as { body?: RowErrorsBody }).body;
      if (body?.row_errors) setResult(withServerErrors(result, body));
      notify(body?.row_errors ? 'import.rejected' : 'import.failed', { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  const fields = model.fields
    .map((field) => field.source)
    .filter((name) => result?.rows.some((row) => name in row.data || name in row.errors));
  const label = (field: string) => translate(`resources.${model.name}.fields.${field}`, { _: field });
  const choices = new Map(model.fields.filter((field) => field.choices).map((field) => [field.source, field.choices!]));
  // A value the schema names (a status, weekdays) or a lookup holds (a location type, carriers) shows by the
  // name the list shows, not its code or id.
  const previewText = (field: string, value: unknown) => {
    const key = choices.get(field);
    const names = shownNames[field];
    const label = (item: unknown) =>
      key ? translate(`choices.${key}.${String(item)}`, { _: String(item) }) : (names?.[String(item)] ?? item);
    if (value === undefined || (typeof value === 'object' && !Array.isArray(value))) return cellText(value);
    return cellText(Array.isArray(value) ? value.map(label) : label(value));
  };
  const ready = result?.state === 'uploaded' && result.rows.every((row) => row.validity === 'valid');
  const cellErrors = (row: ImportRow, field: string) => row.errors[field];

  return (
    <Dialog open={open} onClose={() => !saving && setOpen(false)} maxWidth="lg" fullWidth>
      <DialogTitle>
        {translate('import.title', {
          name: translate(`resources.${model.name}.name`, { smart_count: 2, _: model.name }),
        })}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Stack direction="row" spacing={2} alignItems="center">
            <MuiButton variant="outlined" component="label" disabled={saving || progress !== undefined}>
              {translate('import.choose')}
              <input
                ref={input}
                hidden
                type="file"
                accept=".csv,text/csv"
                onChange={choose}
                data-testid="import-file"
              />
            </MuiButton>
            <Typography variant="body2">{fileName ?? translate('import.no_file')}</Typography>
          </Stack>
          {model.importToggle && (
            <FormControlLabel
              control={
                <Switch checked={toggleOn} onChange={(event) => setToggleOn(event.target.checked)} disabled={saving} />
              }
              label={translate(`resources.${model.name}.import_toggle`)}
            />
          )}
          {progress !== undefined && (
            <Stack spacing={1}>
              <LinearProgress />
              <Typography variant="body2">{translate('import.reading', { count: progress })}</Typography>
            </Stack>
          )}
          {result && (
            <Alert severity={result.state === 'uploaded' ? (ready ? 'success' : 'warning') : 'error'}>
              {translate(result.message, result.args)}
              {result.state === 'uploaded' && ` ${countsText(translate, result.counts)}`}
            </Alert>
          )}
          {result?.state === 'uploaded' && (
            <>
              <Table size="small" aria-label={translate('import.preview')}>
                <TableHead>
                  <TableRow>
                    <TableCell>{translate('import.line')}</TableCell>
                    {fields.map((field) => (
                      <TableCell key={field}>{label(field)}</TableCell>
                    ))}
                    <TableCell>{translate('import.validity')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {shown.map((row) => (
                    <TableRow key={row.line}>
                      <TableCell>{row.line}</TableCell>
                      {fields.map((field) => {
                        const error = cellErrors(row, field);
                        return (
                          <TableCell key={field}>
                            {previewText(field, row.data[field])}
                            {error && (
                              <Typography variant="caption" color="error" display="block">
                                {translate('import.cell_error', {
                                  kind: translate(`import.kind.${error.kind}`),
                                  message: translate(error.message, error.args),
                                })}
                              </Typography>
                            )}
                          </TableCell>
                        );
                      })}
                      <TableCell>
                        <Chip
                          size="small"
                          color={chipColor[row.validity]}
                          label={translate(`import.row.${row.validity}`)}
                        />
                        {row.errors.__row && (
                          <Typography variant="caption" color="error" display="block">
                            {translate(row.errors.__row.message)}
                          </Typography>
                        )}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
              {pagination}
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={() => setOpen(false)} disabled={saving}>
          {translate('ra.action.cancel')}
        </MuiButton>
        <MuiButton variant="contained" onClick={send} disabled={!ready || saving}>
          {translate('import.submit')}
        </MuiButton>
      </DialogActions>
    </Dialog>
  );
}
