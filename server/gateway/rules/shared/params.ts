import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { badRequest, type MessageKey } from '../../http-error.ts';

/**
 * An opname's parameters as small JSON Schemas, each with the keyed refusal (400) its rule answers
 * when the parameter is missing or does not match: `queryParams` for a GET's query (every value
 * text, as sent), `bodyParams` for a body's JSON values. Parameters are checked in the order
 * written, so the first one wrong names the refusal, as the hand-written checks did.
 */

type ParamType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

/** The schema keywords these parameters use. */
export interface ParamSchema {
  /** One type, or a type and `'null'` (a body's value that may be null). */
  type?: ParamType | readonly [ParamType, 'null'];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  enum?: readonly (string | number | boolean | null)[];
  items?: ParamSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  /** A map's values (`{ "12": 3 }`): each must match. */
  additionalProperties?: ParamSchema;
  /** Any of these, for a body's id given as a number or as text. */
  anyOf?: readonly ParamSchema[];
  /** Anything this does not match (`{ not: { enum: [null, ''] } }`: some value). */
  not?: ParamSchema;
}

type Refusal = MessageKey | readonly [MessageKey, Record<string, unknown>];

/** A schema and the refusal its rule answers when a value does not match it. */
export interface ParamCheck {
  schema: ParamSchema;
  /** The 400's message key, with its arguments. */
  refusal: Refusal;
}

export interface Param extends ParamCheck {
  /** Absent (undefined) is allowed; a value given must still match. */
  optional?: boolean;
  /** The refusal of an absent parameter, when it is not `refusal`. */
  missing?: Refusal;
  /** Further checks of a value `schema` took, in order, each with its own refusal (a 400). */
  then?: readonly ParamCheck[];
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
          : S extends { type: 'object'; additionalProperties: infer A extends ParamSchema }
            ? Record<string, ValueOf<A>>
            : S extends { type: readonly [infer T extends ParamType, 'null'] }
              ? ValueOf<{ type: T } & Omit<S, 'type'>> | null
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

function refuse(refusal: Refusal) {
  const [key, args] = typeof refusal === 'string' ? [refusal, undefined] : refusal;
  return badRequest(key, args);
}

const textTypeOnly = (schema: ParamSchema) => schema.type === undefined || schema.type === 'string' || !!schema.enum;

function checker<P extends Record<string, Param>>(params: P, textOnly: boolean) {
  // Compiled once, when the rule module loads: a schema a keyword misspelt fails at start, not on a call.
  for (const param of Object.values(params)) {
    const checks = [param, ...(param.then ?? [])];
    if (textOnly && !checks.every((check) => textTypeOnly(check.schema))) {
      throw new Error('A query parameter is text: its schema has type string');
    }
    for (const check of checks) validatorOf(check.schema);
  }
  return (input: Record<string, unknown> | undefined): ParamsOf<P> => {
    const out: Record<string, unknown> = {};
    for (const [name, param] of Object.entries(params)) {
      const value = input?.[name];
      if (value === undefined) {
        if (param.optional) continue;
        throw refuse(param.missing ?? param.refusal);
      }
      if (!validatorOf(param.schema)(value)) throw refuse(param.refusal);
      for (const check of param.then ?? []) if (!validatorOf(check.schema)(value)) throw refuse(check.refusal);
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
/** A positive whole number given as a number or as text (an id in a body), 10 digits at most. */
export const ID_VALUE = {
  anyOf: [{ type: 'integer', minimum: 1, maximum: 9_999_999_999 }, ID_TEXT],
} as const satisfies ParamSchema;
/** Some value: neither null nor the empty text (absent is the parameter's own case). */
export const SOME_VALUE = { not: { enum: [null, ''] } } as const satisfies ParamSchema;
/** A day written `YYYY-MM-DD`. */
export const DAY_TEXT = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const satisfies ParamSchema;
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
