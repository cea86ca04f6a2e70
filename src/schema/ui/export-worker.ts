import { csvChunk, csvFile, type ExportPlan } from '../csv-export.ts';

/** Messages the export worker understands, in order: start, page..., finish. */
export type ExportWorkerMessage =
  { type: 'start'; plan: ExportPlan } | { type: 'page'; rows: Record<string, unknown>[] } | { type: 'finish' };

/** The worker's global scope, typed by hand: the project compiles against the DOM library. */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ExportWorkerMessage>) => void) | null;
  postMessage(message: Blob): void;
};

let plan: ExportPlan | undefined;
let chunks: string[] = [];

scope.onmessage = (event) => {
  const message = event.data;
  if (message.type === 'start') {
    plan = message.plan;
    chunks = [];
  } else if (message.type === 'page' && plan) {
    chunks.push(csvChunk(plan, message.rows));
  } else if (message.type === 'finish' && plan) {
    const blob = new Blob([csvFile(plan, chunks)], { type: 'text/csv;charset=utf-8' });
    chunks = [];
    scope.postMessage(blob);
  }
};
