import Papa from 'papaparse';
import { exportPlan } from '../../src/schema/csv-export.ts';
import { mainThreadCsvBuilder } from '../../src/schema/ui/csv-builder.ts';
import { alternate, median, ratioResult, type BenchResult } from './measure.ts';
import { modelOf, translate } from './schemas.ts';
import { servicePoints } from './service-points.ts';

const ROWS = 100_000;
/** The export button's page size (EXPORT_PAGE_SIZE in export-button.tsx, which needs React to import). */
const EXPORT_PAGE_SIZE = 1000;
const TARGET_RATIO = 2;

/**
 * CSV export of 100,000 service points: the plan (translated headers and choice labels) and the
 * builder the export worker runs (src/schema/ui/export-worker.ts builds with the same csvChunk and
 * csvFile), fed page by page as the export button fetches them, to the finished Blob. Baseline:
 * Papa.unparse of the same row objects into a Blob.
 */
export async function csvExportBench(runs = 5): Promise<BenchResult> {
  const model = modelOf('service-point');
  const rows = servicePoints(ROWS);
  const columns = exportPlan(model, translate).headers.length;
  let oursBytes = 0;
  let baselineBytes = 0;
  const times = await alternate(
    runs,
    async () => {
      const builder = mainThreadCsvBuilder(exportPlan(model, translate));
      for (let start = 0; start < rows.length; start += EXPORT_PAGE_SIZE) {
        builder.add(rows.slice(start, start + EXPORT_PAGE_SIZE));
      }
      oursBytes = (await builder.finish()).size;
    },
    () => {
      baselineBytes = new Blob([Papa.unparse(rows, { newline: '\r\n' })], { type: 'text/csv;charset=utf-8' }).size;
    },
  );
  const ours = median(times.ours);
  const baseline = median(times.baseline);
  return ratioResult('CSV export, 100k service points', ours, baseline, TARGET_RATIO, [
    `Ours: exportPlan + the export worker's builder (csvChunk per ${EXPORT_PAGE_SIZE}-row page, csvFile) to a Blob, in Node: ${(oursBytes / 1e6).toFixed(1)} MB, ${columns} columns.`,
    `Baseline: Papa.unparse(rows) of the same objects to a Blob: ${(baselineBytes / 1e6).toFixed(1)} MB. Median of ${runs} runs each, alternated.`,
  ]);
}
