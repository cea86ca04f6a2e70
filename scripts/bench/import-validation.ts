import Papa from 'papaparse';
import { importModel, LIST_SEPARATOR, parseCsv } from '../../src/schema/bulk-import.ts';
import { alternate, median, ratioResult, type BenchResult } from './measure.ts';
import { registry } from './schemas.ts';
import { servicePoints } from './service-points.ts';

const ROWS = 10_000;
const SCHEMA_ID = 'service-point';
const TARGET_RATIO = 2;

/** A service point file as a user would fill it: the importable columns the rows have. */
function importFile() {
  const model = importModel(registry.model(SCHEMA_ID));
  const [first] = servicePoints(1);
  // Opening hours and carrier settings are objects, which a CSV cell does not hold (the export leaves them out).
  const inCells = (value: unknown) =>
    typeof value !== 'object' || (Array.isArray(value) && typeof value[0] !== 'object');
  const columns = Object.keys(first).filter(
    (field) => model.fields.includes(field) && inCells(first[field as keyof typeof first]),
  );
  // A list cell is written as a user fills it, items separated by LIST_SEPARATOR (a service point's carriers).
  const rows = servicePoints(ROWS).map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([field, value]) => [field, Array.isArray(value) ? value.join(LIST_SEPARATOR) : value]),
    ),
  );
  return { model, columns, csv: Papa.unparse(rows, { columns, newline: '\r\n' }) };
}

/**
 * Bulk import of a 10,000-row service point file: parseCsv (papaparse step by step, header checks,
 * typed cells, formula check, schema validation with its error mapping, repeat tracking) on the CSV
 * text. Baseline: papaparse parsing the same text with numbers and booleans typed by the schema,
 * list cells split into numbers, then the registry's compiled ajv validator on each row object, nothing more.
 */
export async function importValidationBench(runs = 7): Promise<BenchResult> {
  const { model, columns, csv } = importFile();
  const validate = registry.validator(SCHEMA_ID);
  const typed = new Set(columns.filter((field) => ['integer', 'number', 'boolean'].includes(model.types[field] ?? '')));
  const lists = new Set(columns.filter((field) => model.types[field] === 'array'));
  let valid = 0;
  let baselineValid = 0;
  const times = await alternate(
    runs,
    async () => {
      // A string is one of the inputs papaparse streams; the browser passes the chosen File.
      const result = await parseCsv(csv as unknown as Papa.LocalFile, {
        registry,
        schemaId: SCHEMA_ID,
        rowLimit: ROWS,
      });
      valid = result.counts.valid;
    },
    () => {
      const parsed = Papa.parse<Record<string, unknown>>(csv, {
        header: true,
        skipEmptyLines: 'greedy',
        dynamicTyping: (field) => typed.has(String(field)),
      });
      for (const row of parsed.data) {
        for (const field of lists) row[field] = String(row[field]).split(LIST_SEPARATOR).filter(Boolean).map(Number);
      }
      baselineValid = parsed.data.filter((row) => validate(row)).length;
    },
  );
  const ours = median(times.ours);
  const baseline = median(times.baseline);
  if (valid !== ROWS || baselineValid !== ROWS) {
    throw new Error(`expected ${ROWS} valid rows, got ${valid} (ours) and ${baselineValid} (baseline)`);
  }
  return ratioResult('Import validation, 10k service points', ours, baseline, TARGET_RATIO, [
    `Ours: parseCsv of a ${(csv.length / 1e6).toFixed(1)} MB, ${columns.length}-column CSV string (all ${valid} rows valid): papaparse steps (rows as arrays of cells), headers, typed cells, formula check, schema validation with its error mapping, repeats.`,
    `Baseline: Papa.parse of the same text (header, numbers and booleans typed) + the compiled ajv validator of the same registry on each row. Median of ${runs} runs each, alternated.`,
  ]);
}
