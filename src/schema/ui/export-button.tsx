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
import { Button, useDataProvider, useListContext, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { exportFileName, exportPlan } from '../csv-export.ts';
import type { ResourceModel } from '../resource-model.ts';
import { csvBuilder } from './csv-builder.ts';
import { lookupQuery, translatedChoices } from './lookup-choices.ts';

/** The gateway's largest page. */
export const EXPORT_PAGE_SIZE = 1000;

interface Progress {
  done: number;
  total: number;
}

function download(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Exports every row of the filtered, sorted list (not only the page on screen), page by page,
 * with progress and cancel; the file is built off the main thread.
 */
export function ExportButton({ model }: { model: ResourceModel }) {
  const { filterValues, sort, total, resource } = useListContext();
  const dataProvider = useDataProvider();
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
    let builder: ReturnType<typeof csvBuilder> | undefined;
    try {
      builder = csvBuilder(exportPlan(model, translate, await lookupLabels()));
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
        builder.add(data);
        done += data.length;
        setProgress({ done, total: expected });
        if (data.length < EXPORT_PAGE_SIZE) break;
      }
      if (done < expected) throw new Error('incomplete export');
      const blob = await builder.finish();
      if (controller.signal.aborted) return;
      download(blob, exportFileName(resource, new Date()));
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
