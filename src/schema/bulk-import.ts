import Papa from 'papaparse';
import type { SchemaObject } from 'ajv';
import type { SchemaRegistry } from './ajv.ts';
import { validateRecord } from './validate.ts';

/**
 * The CSV bulk import engine (spec 02 §4 "Bulk upload file states", §5 "Bulk import limits"): checks
 * the file, streams it through papaparse, checks the headers and every row against the entity schema
 * and flags repeated rows. No React here: the UI (ui/import-button.tsx) shows what this returns and the
 * gateway (server/gateway/bulk-import.ts) re-checks the rows with the same helpers.
 */

export type FileState =
  | 'uploaded'
  | 'empty_field'
  | 'invalid_type'
  | 'header_mismatch'
  | 'empty'
  | 'row_limit_exceeded'
  | 'header_missing'
  | 'invalid_content';

export type RowValidity = 'valid' | 'invalid' | 'repeated';

/** Spec 02 §5 row error kinds. */
export type RowErrorKind =
  'invalid' | 'repeated' | 'missing' | 'special_characters' | 'length' | 'period_at_start' | 'invalid_content';

export interface RowError {
  /** A locale key (`validation.*` or `import.errors.*`). */
  message: string;
  args?: Record<string, unknown>;
  kind: RowErrorKind;
}

export interface ImportRow {
  /** The record's number in the file, the header being 1 (a quoted newline does not add one). */
  line: number;
  data: Record<string, unknown>;
  validity: RowValidity;
  errors: Record<string, RowError>;
}

export interface ImportCounts {
  rows: number;
  valid: number;
  invalid: number;
  repeated: number;
}

export interface ImportResult {
  state: FileState;
  /** `import.state.<state>`, with its arguments. */
  message: string;
  args?: Record<string, unknown>;
  rows: ImportRow[];
  counts: ImportCounts;
}

export const DEFAULT_ROW_LIMIT = 5000;
/** Bytes `checkFile` looks at. */
export const SNIFF_BYTES = 64 * 1024;

export const importMessages = {
  repeated: 'import.errors.repeated',
  formula: 'import.errors.formula',
} as const;

export interface FileMeta {
  name: string;
  type?: string;
  size: number;
}

export interface FileCheck {
  state: FileState;
  message: string;
  args?: Record<string, unknown>;
}

const stateMessage = (state: FileState, args?: Record<string, unknown>): FileCheck => ({
  state,
  message: `import.state.${state}`,
  ...(args && { args }),
});

const CSV_TYPES = new Set(['', 'text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel']);

/**
 * What can be told from the file's name, type, size and first bytes: a CSV in UTF-8 (a BOM is fine)
 * with something in it. Returns 'uploaded' when the file may be parsed.
 */
export function checkFile(meta: FileMeta | undefined | null, firstBytes?: Uint8Array): FileCheck {
  if (!meta) return stateMessage('empty_field');
  if (!/\.csv$/i.test(meta.name) || !CSV_TYPES.has((meta.type ?? '').toLowerCase())) {
    return stateMessage('invalid_type');
  }
  if (meta.size === 0) return stateMessage('empty');
  if (firstBytes) {
    if ((firstBytes[0] === 0xff && firstBytes[1] === 0xfe) || (firstBytes[0] === 0xfe && firstBytes[1] === 0xff)) {
      return stateMessage('invalid_content', { reason: 'encoding' });
    }
    const body = hasUtf8Bom(firstBytes) ? firstBytes.subarray(3) : firstBytes;
    if (body.includes(0)) return stateMessage('invalid_content', { reason: 'binary' });
    try {
      // `stream: true`: a character cut at the end of the sniffed bytes is not an error.
      new TextDecoder('utf-8', { fatal: true }).decode(body, { stream: true });
    } catch {
      return stateMessage('invalid_content', { reason: 'encoding' });
    }
    if (!new TextDecoder().decode(body).trim()) return stateMessage('empty');
  }
  return stateMessage('uploaded');
}

export function hasUtf8Bom(bytes: Uint8Array) {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/**
 * A cell a spreadsheet would run as a formula (CSV injection): starting with `=`, `@`, a tab or a
 * carriage return, or with `+`/`-` unless the rest is a plain number or phone number.
 */
export function looksLikeFormula(value: string): boolean {
  if (/^[=@\t\r]/.test(value)) return true;
  return /^[+-]/.test(value) && !/^[+-][\d\s().]*$/.test(value);
}

/** Maps a schema validation message key to its spec row error kind. */
export function rowErrorKind(message: string): RowErrorKind {
  switch (message) {
    case 'validation.required':
      return 'missing';
    case 'validation.special_characters':
      return 'special_characters';
    case 'validation.min_length':
    case 'validation.max_length':
    case 'validation.min_non_space':
      return 'length';
    case 'validation.no_period_start':
      return 'period_at_start';
    case importMessages.repeated:
      return 'repeated';
    case importMessages.formula:
      return 'invalid_content';
    default:
      return 'invalid';
  }
}

export function validityOf(errors: Record<string, { message: string }>): RowValidity {
  const messages = Object.values(errors).map((error) => error.message);
  if (!messages.length) return 'valid';
  return messages.every((message) => message === importMessages.repeated) ? 'repeated' : 'invalid';
}

/** What the engine and the gateway read from the schema. */
export interface ImportModel {
  /** Importable columns: every property but the readOnly ones. */
  fields: string[];
  /** Required columns, less the tenancy fields (the gateway fills those in for a partner). */
  required: string[];
  /** Tenancy owner fields, e.g. `carrier_id`. */
  ownerFields: string[];
  /** `x-import.unique` fields. */
  unique: string[];
  types: Record<string, string | undefined>;
}

export function importModel(registry: SchemaRegistry, schemaId: string): ImportModel {
  const schema = registry.schema(schemaId);
  const properties = (schema.properties ?? {}) as Record<string, SchemaObject>;
  const resolved = (property: SchemaObject): SchemaObject =>
    typeof property.$ref === 'string' ? (registry.resolveRef(property.$ref, schemaId)?.schema ?? property) : property;
  const fields = Object.keys(properties).filter((field) => resolved(properties[field]).readOnly !== true);
  const tenancy = (schema['x-resource'] as { tenancy?: Record<string, string> } | undefined)?.tenancy ?? {};
  const ownerFields = [...new Set(Object.values(tenancy))].filter((field) => fields.includes(field));
  const types: Record<string, string | undefined> = {};
  for (const field of fields) {
    const type = resolved(properties[field]).type as unknown;
    types[field] = Array.isArray(type) ? type.find((t) => t !== 'null') : (type as string | undefined);
  }
  return {
    fields,
    required: ((schema.required ?? []) as string[]).filter((f) => fields.includes(f) && !ownerFields.includes(f)),
    ownerFields,
    unique: fields.filter((field) => (properties[field]['x-import'] as { unique?: boolean } | undefined)?.unique),
    types,
  };
}

/** A CSV cell as the JSON value the schema expects; left as text when it does not convert. */
export function typedCell(type: string | undefined, cell: string): unknown {
  const value = cell.trim();
  if (type === 'integer' || type === 'number') {
    return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : cell;
  }
  if (type === 'boolean') {
    const lower = value.toLowerCase();
    if (['true', '1', 'yes'].includes(lower)) return true;
    if (['false', '0', 'no'].includes(lower)) return false;
    return cell;
  }
  return cell;
}

/** Tracks `x-import.unique` values across rows, per tenancy owner. */
export function repeatTracker(model: ImportModel) {
  const seen = new Map<string, number>();
  return (data: Record<string, unknown>, line: number): Record<string, RowError> => {
    const errors: Record<string, RowError> = {};
    const owner = model.ownerFields.map((field) => String(data[field] ?? '')).join('\u0000');
    for (const field of model.unique) {
      const value = data[field];
      if (value === undefined || value === null || String(value).trim() === '') continue;
      const key = `${field}\u0000${owner}\u0000${String(value).trim().toLowerCase()}`;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, line);
      else errors[field] = { message: importMessages.repeated, args: { line: first }, kind: 'repeated' };
    }
    return errors;
  };
}

/**
 * One row through the schema: formula cells are refused (and left out of `data`), the rest typed and
 * validated with `validateRecord`. An owner field missing from the file is not reported missing.
 */
export function checkRow(
  registry: SchemaRegistry,
  schemaId: string,
  model: ImportModel,
  cells: Record<string, unknown>,
  presentFields: readonly string[],
): { data: Record<string, unknown>; errors: Record<string, RowError> } {
  const errors: Record<string, RowError> = {};
  const input: Record<string, unknown> = {};
  for (const [field, raw] of Object.entries(cells)) {
    if (typeof raw === 'string' && looksLikeFormula(raw)) {
      errors[field] = { message: importMessages.formula, kind: 'invalid_content' };
      continue;
    }
    if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) continue;
    input[field] = typeof raw === 'string' ? typedCell(model.types[field], raw) : raw;
  }
  const result = validateRecord(registry, schemaId, input);
  for (const [field, error] of Object.entries(result.errors)) {
    if (errors[field]) continue;
    if (error.message === 'validation.required' && model.ownerFields.includes(field) && !presentFields.includes(field))
      continue;
    errors[field] = {
      message: error.message,
      ...(error.args && { args: error.args }),
      kind: rowErrorKind(error.message),
    };
  }
  return { data: result.data, errors };
}

export interface ParseOptions {
  registry: SchemaRegistry;
  schemaId: string;
  rowLimit?: number;
  /** Called as rows arrive, with the number read so far. */
  onProgress?(rows: number): void;
  /** Bytes per papaparse chunk (its default is 10 MB for local files). */
  chunkSize?: number;
}

async function firstBytesOf(file: Blob): Promise<Uint8Array> {
  const slice = file.slice(0, SNIFF_BYTES);
  if (typeof slice.arrayBuffer === 'function') return new Uint8Array(await slice.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsArrayBuffer(slice);
  });
}

const noCounts = (): ImportCounts => ({ rows: 0, valid: 0, invalid: 0, repeated: 0 });

/** Checks and parses a chosen file. */
export async function importFile(file: File | null | undefined, options: ParseOptions): Promise<ImportResult> {
  const check = checkFile(file, file ? await firstBytesOf(file) : undefined);
  if (check.state !== 'uploaded' || !file) return { ...check, rows: [], counts: noCounts() };
  return parseCsv(file, options);
}

/**
 * Streams CSV text through papaparse and checks it. Stops, without reading further, at the first
 * header problem, undecodable character or the row past the limit.
 */
export function parseCsv(source: Papa.LocalFile, options: ParseOptions): Promise<ImportResult> {
  const { registry, schemaId, rowLimit = DEFAULT_ROW_LIMIT, onProgress } = options;
  const model = importModel(registry, schemaId);
  const repeats = repeatTracker(model);
  const rows: ImportRow[] = [];
  let failure: FileCheck | undefined;
  let headers: string[] | undefined;
  let read = 0;

  const checkHeaders = (fields: string[]): FileCheck | undefined => {
    const missing = model.required.filter((field) => !fields.includes(field));
    if (missing.length) return stateMessage('header_missing', { fields: missing.join(', ') });
    const unknown = fields.filter((field) => !model.fields.includes(field));
    if (unknown.length || new Set(fields).size !== fields.length) {
      return stateMessage('header_mismatch', { fields: unknown.join(', ') || fields.join(', ') });
    }
    return undefined;
  };

  /** papaparse stops parsing on abort but leaves a Node stream flowing: stop reading it too. */
  const stop = (parser: Papa.Parser) => {
    parser.abort();
    const stream = source as Partial<{ destroy(): void }>;
    if (typeof stream.destroy === 'function') stream.destroy();
  };

  return new Promise((resolve, reject) => {
    const finish = () => {
      if (failure) return resolve({ ...failure, rows: [], counts: { ...noCounts(), rows: read } });
      if (!headers || !rows.length) return resolve({ ...stateMessage('empty'), rows: [], counts: noCounts() });
      const counts = noCounts();
      counts.rows = rows.length;
      for (const row of rows) counts[row.validity] += 1;
      resolve({ ...stateMessage('uploaded'), rows, counts });
    };

    Papa.parse<Record<string, unknown>>(source, {
      header: true,
      skipEmptyLines: 'greedy',
      ...(options.chunkSize && { chunkSize: options.chunkSize }),
      transformHeader: (header, index) => (index === 0 ? header.replace(/^\uFEFF/, '') : header).trim(),
      step(result, parser) {
        if (failure) return;
        if (!headers) {
          headers = (result.meta.fields ?? []).map(String);
          failure = checkHeaders(headers);
          if (failure) return stop(parser);
        }
        read += 1;
        if (read > rowLimit) {
          failure = stateMessage('row_limit_exceeded', { count: rowLimit });
          return stop(parser);
        }
        const cells: Record<string, unknown> = {};
        for (const field of headers) {
          const value = result.data[field];
          if (typeof value === 'string' && value.includes('\uFFFD')) {
            failure = stateMessage('invalid_content', { reason: 'encoding', line: read + 1 });
            return stop(parser);
          }
          cells[field] = value;
        }
        // Cells past the header (papaparse's `__parsed_extra`) are a malformed row.
        const extra = result.data.__parsed_extra !== undefined;
        const line = read + 1;
        const { data, errors } = checkRow(registry, schemaId, model, cells, headers);
        if (extra) errors.__row = { message: 'import.errors.extra_cells', kind: 'invalid' };
        Object.assign(errors, Object.keys(errors).length ? {} : repeats(data, line));
        rows.push({ line, data, validity: validityOf(errors), errors });
        if (read % 500 === 0) onProgress?.(read);
      },
      complete: finish,
      error: (error: Error) => reject(error),
    });
  });
}
