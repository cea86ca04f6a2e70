import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { badRequest, type MessageKey } from '../../http-error.ts';

/**
 * An opname's parameters as small JSON Schemas, each with the keyed refusal (400) its rule answers
 * when the parameter is missing or does not match: `queryParams` for a GET's query (every value
 * text, as sent), `bodyParams` for a body's JSON values. Parameters are checked in the order
 * written, so the first one wrong names the refusal, as the hand-written checks did.
 */

/** The schema keywords these parameters use. */
export interface ParamSchema {
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  enum?: readonly (string | number | boolean)[];
  items?: ParamSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
}

export interface Param {
  schema: ParamSchema;
  /** The 400's message key, with its arguments. */
  refusal: MessageKey | readonly [MessageKey, Record<string, unknown>];
  /** Absent (undefined) is allowed; a value given must still match. */
  optional?: boolean;
}

type ValueOf<S extends ParamSchema> = S extends { enum: readonly (infer E)[] }
  ? E
  : S extends { type: 'integer' | 'number' }
    ? number
    : S extends { type: 'string' }
      ? string
      : S extends { type: 'boolean' }
        ? boolean
        : S extends { type: 'array'; items: infer I extends ParamSchema }
          ? ValueOf<I>[]
          : unknown;

export type ParamsOf<P extends Record<string, Param>> = {
  [K in keyof P]: P[K] extends { optional: true } ? ValueOf<P[K]['schema']> | undefined : ValueOf<P[K]['schema']>;
};

const ajv = new Ajv2020({ strict: true, allErrors: false, coerceTypes: false });
const compiled = new WeakMap<ParamSchema, ValidateFunction>();

function validatorOf(schema: ParamSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema as object);
    compiled.set(schema, validate);
  }
  return validate;
}

function refuse(param: Param) {
  const [key, args] = typeof param.refusal === 'string' ? [param.refusal, undefined] : param.refusal;
  return badRequest(key, args);
}

function checker<P extends Record<string, Param>>(params: P, textOnly: boolean) {
  // Compiled once, when the rule module loads: a schema a keyword misspelt fails at start, not on a call.
  for (const param of Object.values(params)) {
    if (textOnly && param.schema.type !== undefined && param.schema.type !== 'string' && !param.schema.enum) {
      throw new Error('A query parameter is text: its schema has type string');
    }
    validatorOf(param.schema);
  }
  return (input: Record<string, unknown> | undefined): ParamsOf<P> => {
    const out: Record<string, unknown> = {};
    for (const [name, param] of Object.entries(params)) {
      const value = input?.[name];
      if (value === undefined) {
        if (param.optional) continue;
        throw refuse(param);
      }
      if (!validatorOf(param.schema)(value)) throw refuse(param);
      out[name] = value;
    }
    return out as ParamsOf<P>;
  };
}

/** A GET's query parameters (text as sent), checked by their schemas: `queryParams({...})(query)`. */
export const queryParams = <const P extends Record<string, Param>>(params: P) => checker(params, true);

/** A body's parameters (JSON values), checked by their schemas: `bodyParams({...})(body)`. */
export const bodyParams = <const P extends Record<string, Param>>(params: P) => checker(params, false);

/** A positive whole number written as text (an id in a query). */
export const ID_TEXT = { type: 'string', pattern: '^[1-9][0-9]{0,9}$' } as const satisfies ParamSchema;
/** Any text but the empty one. */
export const SOME_TEXT = { type: 'string', minLength: 1 } as const satisfies ParamSchema;

/** A parameter that must be given as some text, else 400 `gateway.param_required`. */
export const requiredText = (name: string) =>
  ({ schema: SOME_TEXT, refusal: ['gateway.param_required', { name }] }) as const satisfies Param;

/** A positive whole number given as text, else 400 `gateway.positive_integer`. */
export const positiveIdText = (name: string) =>
  ({ schema: ID_TEXT, refusal: ['gateway.positive_integer', { name }] }) as const satisfies Param;

/** A positive whole number given as text, or nothing (absent or the empty text), else 400 `gateway.positive_integer`. */
export const optionalIdText = (name: string) =>
  ({
    schema: { type: 'string', pattern: '^([1-9][0-9]{0,9})?$' },
    refusal: ['gateway.positive_integer', { name }],
    optional: true,
  }) as const satisfies Param;
