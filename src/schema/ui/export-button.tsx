import { useRef, useState } from 'react';
import DownloadIcon from '@mui/icons-material/GetApp';
import {
  Button as MuiButton,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import {
  Button,
  useListContext,
  useLocaleState,
  useNotify,
  useTranslate,
  type DataProvider,
  type Identifier,
} from 'react-admin';
import { useGateway } from './gateway-api.ts';
import type { FieldModel, ResourceModel } from '../resource-model.ts';
import { lookupQuery, translatedChoices } from './lookup-choices.ts';
import { downloadBlob } from './download-file.ts';

/** The gateway's largest page. */
export const EXPORT_PAGE_SIZE = 1000;

interface Progress {
  done: number;
  total: number;
}

type Row = Record<string, unknown>;

/**
 * Puts the names of referenced records (`x-lookup.resource`: a courier's carrier) in place of their
 * ids, fetching each id once, as the pages come: the file shows what the list shows. An id whose
 * record is gone stays an id.
 */
export function referenceNamer(dataProvider: DataProvider, fields: readonly FieldModel[]) {
  const references = fields.filter((field) => field.lookup?.resource && !field.lookup.source);
  const names = new Map<string, Map<string, string>>();
  const namesOf = (resource: string) => {
    let known = names.get(resource);
    if (!known) names.set(resource, (known = new Map()));
    return known;
  };
  const idsIn = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);
  return async (rows: Row[]): Promise<Row[]> => {
    if (!references.length) return rows;
    for (const field of references) {
      const { resource, label = 'name' } = field.lookup as { resource: string; label?: string };
      const known = namesOf(resource);
      const missing = [
        ...new Set(
          rows
            .flatMap((row) => idsIn(row[field.source]))
            .filter((id) => id !== undefined && id !== null && id !== '' && !known.has(String(id))),
        ),
      ] as Identifier[];
      if (!missing.length) continue;
      const { data } = await dataProvider.getMany(resource, { ids: missing });
      for (const record of data) {
        if (record[label] !== undefined && record[label] !== null) known.set(String(record.id), String(record[label]));
      }
    }
    return rows.map((row) => {
      const named = { ...row };
      for (const field of references) {
        const known = namesOf(field.lookup!.resource!);
        const name = (id: unknown) => known.get(String(id)) ?? id;
        const value = row[field.source];
        if (value === undefined || value === null) continue;
        named[field.source] = Array.isArray(value) ? value.map(name) : name(value);
      }
      return named;
    });
  };
}

/**
 * Exports every row of the filtered, sorted list (not only the page on screen), page by page,
 * with progress and cancel; the file is built off the main thread.
 */
export function ExportButton({ model }: { model: ResourceModel }) {
  const { filterValues, sort, total, resource } = useListContext();
  const dataProvider = useGateway();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const [progress, setProgress] = useState<Progress | undefined>();
  const queryClient = useQueryClient();

  /** Names of the lookup-list values, from the cache the list columns filled. */
  const lookupLabels = async () => {
    const entries = await Promise.all(
      model.fields
        .filter((field) => field.lookup?.source)
        .map(async (field) => {
          const source = field.lookup!.source!;
          const choices = translatedChoices(
            source,
            await queryClient.fetchQuery(lookupQuery(dataProvider, source)),
            translate,
            locale,
          );
          return [field.source, Object.fromEntries(choices.map((c) => [String(c.id), c.name]))] as const;
        }),
    );
    return Object.fromEntries(entries);
  };
  const cancelled = useRef<AbortController | undefined>(undefined);

  const run = async () => {
    const controller = new AbortController();
    cancelled.current = controller;
    setProgress({ done: 0, total: total ?? 0 });
    let builder: ReturnType<(typeof import('./csv-builder.ts'))['csvBuilder']> | undefined;
    try {
      // The CSV code loads with the first export, not with every list.
      const [{ exportFileName, exportPlan }, { csvBuilder }] = await Promise.all([
        import('../csv-export.ts'),
        import('./csv-builder.ts'),
      ]);
      builder = csvBuilder(exportPlan(model, translate, await lookupLabels()));
      const named = referenceNamer(dataProvider, model.fields);
      let done = 0;
      let expected = Infinity;
      for (let page = 1; done < expected; page++) {
        const { data, total: listTotal } = await dataProvider.getList(resource, {
          pagination: { page, perPage: EXPORT_PAGE_SIZE },
          sort,
          filter: filterValues,
          signal: controller.signal,
        });
        if (controller.signal.aborted) return builder.cancel();
        if (page === 1) expected = listTotal ?? data.length;
        if (!data.length) break;
        builder.add(await named(data));
        done += data.length;
        setProgress({ done, total: expected });
        if (data.length < EXPORT_PAGE_SIZE) break;
      }
      if (done < expected) throw new Error('incomplete export');
      const blob = await builder.finish();
      if (controller.signal.aborted) return;
      downloadBlob(blob, exportFileName(resource, new Date()));
    } catch {
      builder?.cancel();
      if (!controller.signal.aborted) notify('export.failed', { type: 'error' });
    } finally {
      if (cancelled.current === controller) cancelled.current = undefined;
      setProgress(undefined);
    }
  };

  const cancel = () => {
    cancelled.current?.abort();
    setProgress(undefined);
  };

  const percent = progress && progress.total ? Math.min(100, (progress.done / progress.total) * 100) : 0;
  return (
    <>
      <Button label="ra.action.export" onClick={() => void run()} disabled={!total || Boolean(progress)}>
        <DownloadIcon />
      </Button>
      <Dialog open={Boolean(progress)} onClose={cancel} aria-labelledby="export-progress-title" fullWidth maxWidth="xs">
        <DialogTitle id="export-progress-title">{translate('export.title')}</DialogTitle>
        <DialogContent>
          <LinearProgress variant="determinate" value={percent} aria-label={translate('export.title')} />
          <Typography variant="body2" sx={{ mt: 1 }}>
            {translate('export.progress', { done: progress?.done ?? 0, total: progress?.total ?? 0 })}
          </Typography>
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={cancel}>{translate('ra.action.cancel')}</MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}
