import type { ErrorObject } from 'ajv';
import type { SchemaRegistry } from './ajv.ts';
import { mapAjvError } from './error-mapping.ts';
import type { MappedError } from './error-mapping.ts';
import type { FieldError } from './validators/messages.ts';
import { normaliseInput } from './validators/normalise-input.ts';

export interface ValidationResult<T = Record<string, unknown>> {
  valid: boolean;
  /** The input with empty values removed; of type T only when `valid`. */
  data: T;
  /** One error per dotted field path. */
  errors: Record<string, FieldError>;
}

export interface ValidateOptions {
  /** PATCH bodies: a required property may be left out, but not sent empty. */
  partial?: boolean;
}

/** The same check for the browser form and the gateway's 422 answer. */
export function validateRecord<T = Record<string, unknown>>(
  registry: SchemaRegistry,
  schemaId: string,
  data: unknown,
  { partial = false }: ValidateOptions = {},
): ValidationResult<T> {
  const normalised = isAlreadyNormal(data)
    ? { ...data }
    : normaliseInput(data, registry.schema(schemaId), registry.resolveRef);
  return checked<T>(registry, schemaId, normalised, partial, data);
}

/**
 * `validateRecord` for input that needs no normalising, because its maker already left out empty
 * values: numbers, booleans, non-blank strings and arrays of them (an imported CSV row). `data` is
 * validated and returned as it is, not copied.
 */
export function validateNormalised<T = Record<string, unknown>>(
  registry: SchemaRegistry,
  schemaId: string,
  data: Record<string, unknown>,
): ValidationResult<T> {
  return checked<T>(registry, schemaId, data, false, data);
}

/** `original`: the input as given; with `partial`, its left-out required properties are not errors. */
function checked<T>(
  registry: SchemaRegistry,
  schemaId: string,
  normalised: unknown,
  partial: boolean,
  original: unknown,
): ValidationResult<T> {
  const validate = registry.validator(schemaId);
  if (validate(normalised)) return { valid: true, data: normalised as T, errors: {} };
  const relevant = (validate.errors ?? []).filter((error) => !(partial && isLeftOutOfPatch(error, original)));
  const errors = pickOnePerField(relevant.map(mapAjvError).filter((mapped) => mapped !== undefined));
  return { valid: Object.keys(errors).length === 0, data: normalised as T, errors };
}

const NOT_BLANK = /\S/;

/**
 * A flat record of numbers, booleans and non-blank strings, such as an imported CSV row, comes out
 * of `normaliseInput` as an equal copy: a spread makes the same copy, about ten times faster, which
 * is most of the cost of checking a 10,000-row file.
 */
function isAlreadyNormal(data: unknown): data is Record<string, unknown> {
  if (Object.prototype.toString.call(data) !== '[object Object]') return false;
  // A spread would copy symbol-keyed members, which normalising leaves out.
  if (Object.getOwnPropertySymbols(data).length) return false;
  for (const key in data as Record<string, unknown>) {
    if (!Object.hasOwn(data as object, key)) return false;
    const value = (data as Record<string, unknown>)[key];
    const type = typeof value;
    if (type === 'string' ? !NOT_BLANK.test(value as string) : type !== 'number' && type !== 'boolean') return false;
  }
  return true;
}

/**
 * Nested objects of a PATCH replace the stored value whole, so only the record's own top-level
 * properties may be missing.
 */
function isLeftOutOfPatch(error: ErrorObject, original: unknown): boolean {
  return (
    error.keyword === 'required' &&
    error.instancePath === '' &&
    !(typeof original === 'object' && original !== null && error.params.missingProperty in original)
  );
}

function pickOnePerField(mapped: MappedError[]): Record<string, FieldError> {
  const best = new Map<string, MappedError>();
  for (const candidate of mapped) {
    const current = best.get(candidate.path);
    if (!current || candidate.rank < current.rank) best.set(candidate.path, candidate);
  }
  return Object.fromEntries([...best].map(([path, { error }]) => [path, error]));
}

/** A react-admin leaf error: its resolver only recognises a leaf when both keys are present. */
export type FormFieldError = Required<FieldError>;
export interface FormErrors {
  [field: string]: FormFieldError | FormErrors | FormErrors[];
}

/**
 * The shape react-admin's form `validate` prop returns: errors nested like the record, so that
 * `address.address_id` becomes `{ address: { address_id: … } }` and array items become arrays.
 * When a field and one of its sub-fields both fail, the field's own message is the one shown.
 */
export function toFieldErrors(result: Pick<ValidationResult<unknown>, 'errors'>): FormErrors {
  const tree: FormErrors = {};
  const byDepth = Object.entries(result.errors).sort(([a], [b]) => a.split('.').length - b.split('.').length);
  for (const [path, { message, args = {} }] of byDepth) {
    const segments = path.split('.');
    const parent = containerFor(tree, segments);
    if (parent) parent[segments[segments.length - 1]] = { message, args };
  }
  return tree;
}

type Container = Record<string, unknown>;

function containerFor(tree: FormErrors, segments: string[]): Container | undefined {
  let node: Container = tree;
  for (const [index, segment] of segments.slice(0, -1).entries()) {
    const existing = node[segment];
    if (isLeaf(existing)) return undefined;
    if (existing === undefined) node[segment] = /^[0-9]+$/.test(segments[index + 1]) ? [] : {};
    node = node[segment] as Container;
  }
  return node;
}

function isLeaf(node: unknown): boolean {
  return typeof node === 'object' && node !== null && 'message' in node;
}
