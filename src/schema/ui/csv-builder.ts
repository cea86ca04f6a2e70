import { csvChunk, csvFile, type ExportPlan } from '../csv-export.ts';
import type { ExportWorkerMessage } from './export-worker.ts';

/** Turns pages into a CSV file as they arrive. */
export interface CsvBuilder {
  add(rows: Record<string, unknown>[]): void;
  finish(): Promise<Blob>;
  cancel(): void;
}

const CSV_TYPE = 'text/csv;charset=utf-8';

/** On the main thread: only where Web Workers are missing (tests, very old browsers). */
export function mainThreadCsvBuilder(plan: ExportPlan): CsvBuilder {
  let chunks: string[] = [];
  return {
    add: (rows) => chunks.push(csvChunk(plan, rows)),
    finish: async () => new Blob([csvFile(plan, chunks)], { type: CSV_TYPE }),
    cancel: () => {
      chunks = [];
    },
  };
}

/** In a Web Worker, so the page stays responsive while a large file is built. */
function workerCsvBuilder(plan: ExportPlan): CsvBuilder {
  const worker = new Worker(new URL('./export-worker.ts', import.meta.url), { type: 'module' });
  const post = (message: ExportWorkerMessage) => worker.postMessage(message);
  post({ type: 'start', plan });
  return {
    add: (rows) => post({ type: 'page', rows }),
    finish: () =>
      new Promise<Blob>((resolve, reject) => {
        worker.onmessage = (event: MessageEvent<Blob>) => {
          worker.terminate();
          resolve(event.data);
        };
        worker.onerror = (event) => {
          worker.terminate();
          reject(new Error(event.message));
        };
        post({ type: 'finish' });
      }),
    cancel: () => worker.terminate(),
  };
}

export function csvBuilder(plan: ExportPlan): CsvBuilder {
  return typeof Worker === 'undefined' ? mainThreadCsvBuilder(plan) : workerCsvBuilder(plan);
}
