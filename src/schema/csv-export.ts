import Papa from 'papaparse';
import { csvDateTime } from './dates.ts';
import type { FieldModel, ResourceModel } from './resource-model.ts';

export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** What an empty cell shows in the file (spec 02 §2). */
export const EMPTY_CELL = '-';

/** Warehouse position names and bucket names never leave the tool (spec 02 §2). */
const OMITTED_FROM_EXPORT = /warehouse_position|bucket/;

/** Spreadsheets run a cell that starts with one of these as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

interface ExportColumn {
  source: string;
  kind: 'switch' | 'yes_no' | 'choice' | 'array' | 'moment' | 'plain';
  /** Translated names of the values, for choice and array columns with `x-choices`. */
  labels?: Record<string, string>;
}

/**
 * Everything the file needs, already translated: plain data, so a Web Worker can build the
 * rows without the translator.
 */
export interface ExportPlan {
  headers: string[];
  columns: ExportColumn[];
  active: string;
  deactive: string;
  yes: string;
  no: string;
}

/** Every column (hidden ones too) except `ignorexport` and omitted names, in index order. */
export function exportFields(model: ResourceModel): FieldModel[] {
  return model.fields
    .filter((field) => !field.column.ignorexport && !OMITTED_FROM_EXPORT.test(field.source))
    .sort((a, b) => a.column.index - b.column.index);
}

function choiceLabels(field: FieldModel, translate: Translate): Record<string, string> | undefined {
  const key = field.choices;
  if (!key) return undefined;
  return Object.fromEntries(
    (field.values ?? []).map((value) => [String(value), translate(`choices.${key}.${value}`, { _: String(value) })]),
  );
}

function columnKind(field: FieldModel, lookupLabels: Record<string, string> | undefined): ExportColumn['kind'] {
  // Spec 02 §2's Active/Deactive is for on/off states; a fact such as 'terminated' reads Yes or No.
  if (field.column.type === 'switch') return 'switch';
  if (field.type === 'boolean') return 'yes_no';
  if (field.type === 'array') return 'array';
  if (field.choices || lookupLabels) return 'choice';
  // ISO 8601 to the second, not the gateway's milliseconds (schemas/README.md, "Dates").
  if (field.format === 'date-time') return 'moment';
  return 'plain';
}

/**
 * `lookups`: for fields with an `x-lookup.source`, the names of their values (`column_id` ->
 * `column_name`), so that the file shows what the list shows, not ids.
 */
export function exportPlan(
  model: ResourceModel,
  translate: Translate,
  lookups: Record<string, Record<string, string>> = {},
): ExportPlan {
  const fields = exportFields(model);
  return {
    headers: fields.map((field) => translate(`resources.${model.name}.fields.${field.source}`, { _: field.source })),
    columns: fields.map((field) => ({
      source: field.source,
      kind: columnKind(field, lookups[field.source]),
      labels: lookups[field.source] ?? choiceLabels(field, translate),
    })),
    active: translate('table.active'),
    deactive: translate('table.deactive'),
    yes: translate('table.yes'),
    no: translate('table.no'),
  };
}

/** A cell a spreadsheet would run as a formula gets a leading quote, so it stays text. */
export function neutralised(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function text(value: unknown, labels: Record<string, string> | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  const raw = String(value);
  return labels && Object.hasOwn(labels, raw) ? labels[raw] : raw;
}

function cell(column: ExportColumn, value: unknown, plan: ExportPlan): string {
  if (column.kind === 'switch' || column.kind === 'yes_no') {
    if (value === null || value === undefined || value === '') return EMPTY_CELL;
    const on = value === true || value === 1 || value === 'true';
    if (column.kind === 'switch') return on ? plan.active : plan.deactive;
    return on ? plan.yes : plan.no;
  }
  if (column.kind === 'moment') {
    const moment = csvDateTime(value);
    return moment.trim() === '' ? EMPTY_CELL : neutralised(moment);
  }
  if (column.labels && typeof value === 'number' && Object.hasOwn(column.labels, String(value))) {
    return neutralised(column.labels[String(value)]);
  }
  // A number is read as a number by a spreadsheet, even a negative one; only text can smuggle a formula.
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : EMPTY_CELL;
  const shown = Array.isArray(value)
    ? value
        .map((item) => text(item, column.labels))
        .filter(Boolean)
        .join(', ')
    : text(value, column.labels);
  return shown.trim() === '' ? EMPTY_CELL : neutralised(shown);
}

export function exportCells(plan: ExportPlan, rows: readonly Record<string, unknown>[]): string[][] {
  return rows.map((row) => plan.columns.map((column) => cell(column, row[column.source], plan)));
}

/** The CSV lines of some rows, without the header: pages are turned into text as they arrive. */
export function csvChunk(plan: ExportPlan, rows: readonly Record<string, unknown>[]): string {
  return rows.length ? Papa.unparse(exportCells(plan, rows), { newline: '\r\n' }) : '';
}

export function csvHeader(plan: ExportPlan): string {
  return Papa.unparse([plan.headers.map(neutralised)], { newline: '\r\n' });
}

/** The whole file: translated header, then one line per row. */
export function csvFile(plan: ExportPlan, chunks: readonly string[]): string {
  return [csvHeader(plan), ...chunks.filter(Boolean)].join('\r\n') + '\r\n';
}

export function exportRows(
  model: ResourceModel,
  rows: readonly Record<string, unknown>[],
  translate: Translate,
): string {
  const plan = exportPlan(model, translate);
  return csvFile(plan, [csvChunk(plan, rows)]);
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** `<label>-DD-MM-YYYY-HH-mm.csv`, in local time. */
export function exportFileName(resourceLabel: string, now: Date): string {
  const label = resourceLabel.replace(/[\\/:*?"<>|\s]+/g, '_');
  const stamp = [
    twoDigits(now.getDate()),
    twoDigits(now.getMonth() + 1),
    now.getFullYear(),
    twoDigits(now.getHours()),
    twoDigits(now.getMinutes()),
  ].join('-');
  return `${label}-${stamp}.csv`;
}
