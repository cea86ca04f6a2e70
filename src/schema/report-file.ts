import { EMPTY_CELL, neutralised } from './csv-export.ts';
import Papa from 'papaparse';

/**
 * The file of a requested report (spec 02 §7): rows separated by `#`, fields by `|`, the column
 * names in the first row. Written by the gateway's report jobs, read by the report page.
 */

const ROW = '#';
const FIELD = '|';

export interface ReportTable {
  columns: string[];
  rows: string[][];
}

/** `#` and `|` separate rows and fields: a value holding one would break the file, so it becomes a space. */
export function reportField(value: unknown): string {
  return (value === undefined || value === null ? '' : String(value)).replace(/[#|\r\n]/g, ' ');
}

export function formatReportFile(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return [columns.map(reportField).join(FIELD), ...rows.map((row) => row.map(reportField).join(FIELD))].join(ROW);
}

/** The table of a report file; an empty file has no columns and no rows. */
export function parseReportFile(file: string): ReportTable {
  if (!file) return { columns: [], rows: [] };
  const [header, ...lines] = file.split(ROW);
  const columns = header.split(FIELD);
  return { columns, rows: lines.map((line) => line.split(FIELD)) };
}

/** The table as a CSV file: the given headers, '-' for an empty cell, formula-like text kept as text. */
export function reportCsv(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const cells = [
    headers.map(neutralised),
    ...rows.map((row) => row.map((value) => (value.trim() === '' ? EMPTY_CELL : neutralised(value)))),
  ];
  return Papa.unparse(cells, { newline: '\r\n' }) + '\r\n';
}
