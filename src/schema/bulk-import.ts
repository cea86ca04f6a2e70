import Papa from 'papaparse';
import type { SchemaRegistry } from './ajv.ts';
import type { ResourceModel } from './resource-model.ts';
import { validateNormalised } from './validate.ts';

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
  | 'invalid'
  | 'repeated'
  | 'missing'
  | 'special_characters'
  | 'length'
  | 'period_at_start'
  | 'mismatch'
  | 'invalid_content';

export interface RowError {
  /** A locale key (`validation.*` or `import.errors.*`). */
  message: string;
  args?: Record<string, unknown>;
  kind: RowErrorKind;
}

export interface ImportRow {
  /**
   * The record's number in the file, as a spreadsheet numbers its rows: the header is 1 when it
   * comes first, blank rows count, a quoted newline does not add one.
   */
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
  /** The value is already stored in another record (`args.id`): a duplicate name or place. */
  exists: 'import.errors.exists',
  formula: 'import.errors.formula',
  /** A name the file gives for a lookup or a choice that the tool does not know (`args.name`). */
  unknownName: 'import.errors.unknown_name',
} as const;

/**
 * Where the rows of a bulk import come from (spec 02 §7 `import_from`): a CSV file chosen in the
 * import dialog, or the locations of a location generator report.
 */
export const IMPORT_SOURCES = ['csv', 'location_report'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

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
  // Every cell of a file passes here: most start with none of these, decided without a regex.
  switch (value.charAt(0)) {
    case '=':
    case '@':
    case '\t':
    case '\r':
      return true;
    case '+':
    case '-':
      return !/^[+-][\d\s().]*$/.test(value);
    default:
      return false;
  }
}

/** Maps a schema validation message key to its spec row error kind. */
export function rowErrorKind(message: string): RowErrorKind {
  switch (message) {
    case 'validation.required':
      return 'missing';
    case 'validation.special_characters':
    case 'validation.name_characters':
      return 'special_characters';
    case 'validation.min_length':
    case 'validation.max_length':
    case 'validation.min_non_space':
      return 'length';
    case 'validation.no_period_start':
      return 'period_at_start';
    case 'validation.count_mismatch':
      return 'mismatch';
    case importMessages.repeated:
    case importMessages.exists:
      return 'repeated';
    case importMessages.formula:
      return 'invalid_content';
    default:
      return 'invalid';
  }
}

export function validityOf(errors: Record<string, { message: string }>): RowValidity {
  let validity: RowValidity = 'valid';
  for (const error of Object.values(errors)) {
    if (error.message !== importMessages.repeated && error.message !== importMessages.exists) return 'invalid';
    validity = 'repeated';
  }
  return validity;
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
  /** `x-import.uniqueWith`: fields compared together with a unique one, e.g. latitude with longitude. */
  uniqueWith: Record<string, string[]>;
  types: Record<string, string | undefined>;
  /** The items' type of each array field. */
  itemTypes: Record<string, string | undefined>;
  /** `readOnly` columns: a file the export wrote has them; the import leaves them out. */
  readOnly: string[];
  /** `x-import.maxLength`: the longest text a cell may give for a field named in the file (a location type). */
  nameLimits: Record<string, number>;
}

/** What the file's rows are checked against, read from the resource model. */
export function importModel(model: ResourceModel): ImportModel {
  const importable = model.fields.filter((field) => !field.readOnly);
  const fields = importable.map((field) => field.source);
  const ownerFields = [...new Set(Object.values(model.tenancy))].filter((field) => fields.includes(field));
  const unique = importable.filter((field) => field.importHint?.unique);
  return {
    fields,
    required: model.required.filter((field) => fields.includes(field) && !ownerFields.includes(field)),
    ownerFields,
    unique: unique.map((field) => field.source),
    uniqueWith: Object.fromEntries(
      unique
        .filter((field) => field.importHint?.uniqueWith?.length)
        .map((field) => [field.source, field.importHint?.uniqueWith ?? []]),
    ),
    types: Object.fromEntries(importable.map((field) => [field.source, field.type])),
    itemTypes: Object.fromEntries(importable.map((field) => [field.source, field.itemType])),
    readOnly: model.fields.filter((field) => field.readOnly).map((field) => field.source),
    nameLimits: Object.fromEntries(
      importable
        .filter((field) => field.importHint?.maxLength)
        .map((field) => [field.source, field.importHint!.maxLength!]),
    ),
  };
}

/**
 * How the tool's own CSV export names things (src/schema/csv-export.ts), so that a file it wrote
 * imports again: translated column headers, lookup and choice values by their shown names, Yes/No and
 * Active/Deactive, lists joined with commas, '-' for an empty cell, a quote before a cell a
 * spreadsheet would run. Names are compared trimmed and in lower case.
 */
export interface ImportVocabulary {
  /** A column's header as the export writes it -> the field. */
  headers: Record<string, string>;
  /** Per field, the names of its values (a location type's name, a status's label) -> the value. */
  values: Record<string, Record<string, string | number>>;
  trueWords: string[];
  falseWords: string[];
}

/** What the export writes for an empty cell (spec 02 §2). */
const EXPORTED_EMPTY = '-';
/** The quote the export puts before a cell that starts like a formula (`'+47...`). */
const NEUTRALISED = /^'[=+\-@\t\r]/;

/** A list cell's items: `;` separates them when the cell has one, else the export's `,`. */
const listItems = (cell: string) =>
  cell
    .split(cell.includes(LIST_SEPARATOR) ? LIST_SEPARATOR : ',')
    .map((item) => item.trim())
    .filter(Boolean);

const nameKey = (text: string) => text.trim().toLowerCase();

/** Turns a cell of an exported file into the value the schema expects, or the name it does not know. */
function vocabularyCell(
  vocabulary: ImportVocabulary,
  field: string,
  type: string | undefined,
  itemType: string | undefined,
  cell: string,
): { value: unknown } | { unknown: string } {
  const names = vocabulary.values[field];
  const named = (item: string, typeOfItem: string | undefined): { value: unknown } | { unknown: string } => {
    if (!names) return { value: typedCell(typeOfItem, item) };
    const byName = names[nameKey(item)];
    if (byName !== undefined) return { value: byName };
    const typed = typedCell(typeOfItem, item);
    return Object.values(names).includes(typed as string | number) ? { value: typed } : { unknown: item.trim() };
  };
  if (type === 'array') {
    const values: unknown[] = [];
    for (const item of listItems(cell)) {
      const result = named(item, itemType);
      if ('unknown' in result) return result;
      values.push(result.value);
    }
    return { value: values };
  }
  if (type === 'boolean') {
    const word = nameKey(cell);
    if (vocabulary.trueWords.includes(word)) return { value: true };
    if (vocabulary.falseWords.includes(word)) return { value: false };
  }
  return named(cell, type);
}

/** Items of a list cell, e.g. `M1; M2`. */
export const LIST_SEPARATOR = ';';

const TRUE_WORDS = new Set(['true', '1', 'yes']);
const FALSE_WORDS = new Set(['false', '0', 'no']);

/**
 * A CSV cell as the JSON value the schema expects; left as text when it does not convert. A list
 * cell's items take `itemType`, so `3; 6` fills an array of carrier ids with numbers.
 */
export function typedCell(type: string | undefined, cell: string, itemType?: string): unknown {
  if (type !== 'array' && type !== 'integer' && type !== 'number' && type !== 'boolean') return cell;
  const value = cell.trim();
  if (type === 'array') {
    return value
      .split(LIST_SEPARATOR)
      .map((item) => item.trim())
      .filter(Boolean)
      .map((item) => (itemType === 'array' ? item : typedCell(itemType, item)));
  }
  if (type === 'integer' || type === 'number') {
    return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : cell;
  }
  if (type === 'boolean') {
    const lower = value.toLowerCase();
    if (TRUE_WORDS.has(lower)) return true;
    if (FALSE_WORDS.has(lower)) return false;
  }
  return cell;
}

/**
 * A value as repeats are compared: text trimmed and in lower case, so ` Kiosk` repeats `kiosk`;
 * undefined when empty. A number, and text that spells one as `String` would (`59.9`), is compared
 * as that number: a Map key with no number-to-text conversion, which is most of the cost of
 * comparing coordinates.
 */
function comparable(value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value).toLowerCase();
  const text = String(value).trim();
  if (text === '') return undefined;
  const lower = text.toLowerCase();
  const code = lower.charCodeAt(0);
  // Only text starting with a digit, '-' or '.' can spell a finite number.
  if ((code >= 48 && code <= 57) || code === 45 || code === 46) {
    const number = Number(lower);
    if (Number.isFinite(number) && String(number) === lower) return number;
  }
  return lower;
}

/** Tracks `x-import.unique` values across rows, per tenancy owner. */
export function repeatTracker(model: ImportModel) {
  const { unique, uniqueWith, ownerFields } = model;
  const withFields = unique.map((field) => uniqueWith[field] ?? []);
  const ownerOf = (data: Record<string, unknown>) => {
    if (ownerFields.length === 1) return String(data[ownerFields[0]] ?? '');
    let owner = '';
    for (let index = 0; index < ownerFields.length; index += 1) {
      owner += `${index ? '\u0000' : ''}${String(data[ownerFields[index]] ?? '')}`;
    }
    return owner;
  };
  /**
   * Per owner, per unique field (by index): a tree of compared values, one level for the field and
   * one for each field compared with it, whose leaves are the first line of each combination.
   */
  type Tree = Map<unknown, Tree | number>;
  const seen = new Map<string, Tree[]>();
  const keys: unknown[] = [];
  // Called for every row of a file: no intermediate arrays, the owner built only when needed.
  return (data: Record<string, unknown>, line: number): Record<string, RowError> => {
    const errors: Record<string, RowError> = {};
    let trees: Tree[] | undefined;
    fields: for (let index = 0; index < unique.length; index += 1) {
      const others = withFields[index];
      keys.length = 0;
      keys.push(comparable(data[unique[index]]));
      for (const other of others) keys.push(comparable(data[other]));
      for (const key of keys) if (key === undefined) continue fields;
      if (!trees) {
        const owner = ownerOf(data);
        trees = seen.get(owner);
        if (!trees) seen.set(owner, (trees = unique.map((): Tree => new Map())));
      }
      let node = trees[index];
      const last = keys.length - 1;
      for (let depth = 0; depth < last; depth += 1) {
        let child = node.get(keys[depth]) as Tree | undefined;
        if (!child) node.set(keys[depth], (child = new Map()));
        node = child;
      }
      const first = node.get(keys[last]) as number | undefined;
      if (first === undefined) node.set(keys[last], line);
      else errors[unique[index]] = { message: importMessages.repeated, args: { line: first }, kind: 'repeated' };
    }
    return errors;
  };
}

/** `\s` is the set `trim` removes: the test avoids a trimmed copy of every cell. */
const NOT_BLANK = /\S/;

function isBlankRow(cells: readonly string[]) {
  for (let index = 0; index < cells.length; index += 1) if (NOT_BLANK.test(cells[index])) return false;
  return true;
}

function isEmpty(errors: Record<string, RowError>) {
  for (const field in errors) if (Object.hasOwn(errors, field)) return false;
  return true;
}

export interface CheckedRow {
  data: Record<string, unknown>;
  errors: Record<string, RowError>;
}

/**
 * Checks the rows of one file, whose header names `columns` (decided once, not per row): formula
 * cells are refused (and left out of `data`), the rest typed and validated against the schema. A row
 * is its cells in the header's order; a missing cell is empty. An owner field missing from the file
 * (`presentFields`) is not reported missing: the gateway fills it in.
 */
export function rowChecker(
  registry: SchemaRegistry,
  schemaId: string,
  model: ImportModel,
  columns: readonly (string | undefined)[],
  presentFields: readonly (string | undefined)[] = columns,
  vocabulary?: ImportVocabulary,
): (cells: readonly (string | undefined)[]) => CheckedRow {
  const types = columns.map((field) => (field === undefined ? undefined : model.types[field]));
  const itemTypes = columns.map((field) => (field === undefined ? undefined : model.itemTypes[field]));
  const unreported = new Set(model.ownerFields.filter((field) => !presentFields.includes(field)));
  return (cells) => {
    const errors: Record<string, RowError> = {};
    const input: Record<string, unknown> = {};
    // Blank cells left out, the rest typed: what `validateRecord` would normalise it to already.
    for (let index = 0; index < columns.length; index += 1) {
      let raw = cells[index];
      const field = columns[index];
      // A column left out of the import (read-only) is skipped.
      if (raw === undefined || field === undefined) continue;
      if (vocabulary) {
        if (raw.trim() === EXPORTED_EMPTY) continue;
        if (NEUTRALISED.test(raw)) raw = raw.slice(1);
      }
      if (looksLikeFormula(raw)) {
        errors[field] = { message: importMessages.formula, kind: 'invalid_content' };
      } else if (NOT_BLANK.test(raw)) {
        const limit = model.nameLimits[field];
        if (limit !== undefined && raw.trim().length > limit) {
          errors[field] = { message: 'validation.max_length', args: { max: limit }, kind: 'length' };
          continue;
        }
        if (!vocabulary) {
          input[field] = typedCell(types[index], raw, itemTypes[index]);
          continue;
        }
        const result = vocabularyCell(vocabulary, field, types[index], itemTypes[index], raw);
        if ('unknown' in result) {
          errors[field] = { message: importMessages.unknownName, args: { name: result.unknown }, kind: 'invalid' };
        } else input[field] = result.value;
      }
    }
    const result = validateNormalised(registry, schemaId, input);
    if (result.valid) return { data: result.data, errors };
    for (const field in result.errors) {
      if (errors[field] || (unreported.has(field) && result.errors[field].message === 'validation.required')) continue;
      const error = result.errors[field];
      errors[field] = {
        message: error.message,
        ...(error.args && { args: error.args }),
        kind: rowErrorKind(error.message),
      };
    }
    return { data: result.data, errors };
  };
}

export interface ParseOptions {
  registry: SchemaRegistry;
  schemaId: string;
  rowLimit?: number;
  /** Called as rows arrive, with the number read so far. */
  onProgress?(rows: number): void;
  /** Bytes per papaparse chunk (its default is 10 MB for local files). */
  chunkSize?: number;
  /** The names the tool's export writes, so that an exported file imports again. */
  vocabulary?: ImportVocabulary;
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
  const { registry, schemaId, rowLimit = DEFAULT_ROW_LIMIT, onProgress, vocabulary } = options;
  const model = importModel(registry.model(schemaId));
  const repeats = repeatTracker(model);
  const rows: ImportRow[] = [];
  let failure: FileCheck | undefined;
  /** The file's header cells, as written. */
  let headers: string[] | undefined;
  /** The field of each column; undefined for a read-only one, which is skipped. */
  let columns: (string | undefined)[] = [];
  let read = 0;
  /** Records papaparse has given, blank ones included: the current one's line. */
  let records = 0;

  /** A header's field: its own name, or the label the export wrote for it. */
  const fieldOf = (header: string) =>
    model.fields.includes(header) || model.readOnly.includes(header) ? header : vocabulary?.headers[nameKey(header)];

  const checkHeaders = (cells: string[]): FileCheck | undefined => {
    const fields = cells.map(fieldOf);
    const known = fields.filter((field): field is string => field !== undefined);
    const missing = model.required.filter((field) => !known.includes(field));
    if (missing.length) return stateMessage('header_missing', { fields: missing.join(', ') });
    const unknown = cells.filter((_, index) => fields[index] === undefined);
    if (unknown.length || new Set(known).size !== known.length) {
      return stateMessage('header_mismatch', { fields: unknown.join(', ') || cells.join(', ') });
    }
    columns = fields.map((field) => (field !== undefined && model.readOnly.includes(field) ? undefined : field));
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

    // Rows as arrays of cells: papaparse's header mode builds an object per row, which the checker
    // would then copy again. The first row is the header.
    let checkCells: ReturnType<typeof rowChecker> | undefined;
    Papa.parse<string[]>(source, {
      ...(options.chunkSize && { chunkSize: options.chunkSize }),
      step(result, parser) {
        if (failure) return;
        const cells = result.data;
        records += 1;
        // Blank rows are skipped, as papaparse's `skipEmptyLines: 'greedy'` would, which joins every row to tell.
        if (isBlankRow(cells)) return;
        if (!headers) {
          headers = cells.map((header, index) => (index === 0 ? header.replace(/^\uFEFF/, '') : header).trim());
          failure = checkHeaders(headers);
          if (failure) return stop(parser);
          checkCells = rowChecker(registry, schemaId, model, columns, columns, vocabulary);
          return;
        }
        read += 1;
        if (read > rowLimit) {
          failure = stateMessage('row_limit_exceeded', { count: rowLimit });
          return stop(parser);
        }
        for (let index = 0; index < cells.length; index += 1) {
          if (cells[index].includes('\uFFFD')) {
            failure = stateMessage('invalid_content', { reason: 'encoding', line: records });
            return stop(parser);
          }
        }
        const line = records;
        const { data, errors } = checkCells!(cells);
        // Cells past the header are a malformed row.
        if (cells.length > headers.length) errors.__row = { message: 'import.errors.extra_cells', kind: 'invalid' };
        if (isEmpty(errors)) Object.assign(errors, repeats(data, line));
        rows.push({ line, data, validity: validityOf(errors), errors });
        if (read % 500 === 0) onProgress?.(read);
      },
      complete: finish,
      error: (error: Error) => reject(error),
    });
  });
}
