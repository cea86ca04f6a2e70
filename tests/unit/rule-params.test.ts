import { describe, expect, it } from 'vitest';
import { HttpError } from '../../server/gateway/http-error.ts';
import {
  bodyParams,
  ID_VALUE,
  positiveIdText,
  queryParams,
  requiredText,
  SOME_VALUE,
} from '../../server/gateway/rules/shared/params.ts';
import { isGiven, isSet, optionalVersion } from '../../server/gateway/rules/shared/values.ts';

/** Issue 25.6: opname parameters checked by small JSON Schemas, each with the keyed 400 its rule answers. */

function refusalOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    const { status, details } = error as HttpError;
    return { status, key: details.message_key, args: details.args };
  }
  throw new Error('not refused');
}

describe('queryParams', () => {
  const check = queryParams({
    request_id: requiredText('request_id'),
    sp_id: positiveIdText('sp_id'),
    ticket_id: {
      schema: { type: 'string', pattern: '^([1-9][0-9]{0,9})?$' },
      refusal: ['gateway.positive_integer', { name: 'ticket_id' }],
      optional: true,
    },
  });

  it('answers the parameters as sent, an optional one left out when absent', () => {
    expect(check({ request_id: 'abc', sp_id: '12', other: 'x' })).toEqual({ request_id: 'abc', sp_id: '12' });
    const both = check({ request_id: 'abc', sp_id: '12', ticket_id: '7' });
    expect(both.ticket_id).toBe('7');
    expect(check({ request_id: 'abc', sp_id: '12', ticket_id: '' }).ticket_id).toBe('');
  });

  it('refuses a missing or empty parameter with its own key and arguments', () => {
    expect(refusalOf(() => check({ sp_id: '12' }))).toEqual({
      status: 400,
      key: 'gateway.param_required',
      args: { name: 'request_id' },
    });
    expect(refusalOf(() => check({ request_id: '', sp_id: '12' })).key).toBe('gateway.param_required');
    expect(refusalOf(() => check(undefined)).args).toEqual({ name: 'request_id' });
  });

  it('refuses a value its schema does not take, the first parameter wrong named', () => {
    for (const bad of ['0', '-1', '1.5', 'x', '01', '12345678901', '']) {
      expect(refusalOf(() => check({ request_id: 'a', sp_id: bad }))).toEqual({
        status: 400,
        key: 'gateway.positive_integer',
        args: { name: 'sp_id' },
      });
    }
    expect(refusalOf(() => check({ request_id: 'a', sp_id: '1', ticket_id: 'x' })).args).toEqual({ name: 'ticket_id' });
    expect(refusalOf(() => check({ sp_id: 'x' })).args).toEqual({ name: 'request_id' });
  });

  it('takes only text schemas for a query, and a misspelt keyword fails when the rule loads', () => {
    expect(() => queryParams({ n: { schema: { type: 'integer' }, refusal: 'gateway.x' } })).toThrow(/text/);
    expect(() =>
      bodyParams({ n: { schema: { type: 'string', minLenght: 1 } as never, refusal: 'gateway.x' } }),
    ).toThrow();
  });
});

describe('bodyParams', () => {
  const check = bodyParams({
    mp_id: { schema: { type: 'integer' }, refusal: ['gateway.positive_integer', { name: 'mp_id' }] },
    action_type: { schema: { enum: [1, 2] }, refusal: 'gateway.periodic_action_type' },
    ids: {
      schema: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1 },
      refusal: ['gateway.param_required', { name: 'ids' }],
      optional: true,
    },
  });

  it('answers JSON values typed by their schemas', () => {
    const params = check({ mp_id: 4, action_type: 2, ids: [1, 2] });
    const id: number = params.mp_id;
    const ids: number[] | undefined = params.ids;
    expect([id, params.action_type, ids]).toEqual([4, 2, [1, 2]]);
  });

  it('refuses by the key each parameter names, never coercing text to a number', () => {
    expect(refusalOf(() => check({ mp_id: '4', action_type: 1 })).args).toEqual({ name: 'mp_id' });
    expect(refusalOf(() => check({ mp_id: 4.5, action_type: 1 })).key).toBe('gateway.positive_integer');
    expect(refusalOf(() => check({ mp_id: 4, action_type: 3 }))).toEqual({
      status: 400,
      key: 'gateway.periodic_action_type',
      args: undefined,
    });
    expect(refusalOf(() => check({ mp_id: 4, action_type: 1, ids: [] })).args).toEqual({ name: 'ids' });
    expect(refusalOf(() => check({ mp_id: 4, action_type: 1, ids: [0] })).args).toEqual({ name: 'ids' });
  });
});

describe('checks in order, nullable values, maps, and ids as numbers or text', () => {
  const check = bodyParams({
    ticket_ids: {
      schema: { type: 'array', items: { type: 'integer', minimum: 1 } },
      refusal: 'gateway.ticket_ids_expected',
      then: [{ schema: { type: 'array', uniqueItems: true }, refusal: 'gateway.ticket_ids_repeated' }],
    },
    status: {
      schema: { type: ['integer', 'null'], minimum: 0, maximum: 2 },
      refusal: ['gateway.integer_range', { name: 'status', min: 0, max: 2 }],
      optional: true,
    },
    versions: {
      schema: { type: ['object', 'null'], additionalProperties: { type: 'integer' } },
      refusal: 'gateway.versions_expected',
      optional: true,
    },
  });

  it('answers null as given, typed, for the rule to read as nothing', () => {
    const params = check({ ticket_ids: [1, 2], status: null, versions: { '1': 3 } });
    const status: number | null | undefined = params.status;
    const versions: Record<string, number> | null | undefined = params.versions;
    expect([status, versions]).toEqual([null, { '1': 3 }]);
    expect(check({ ticket_ids: [], versions: null }).versions).toBeNull();
  });

  it('runs the further checks of a parameter in order, each with its own refusal', () => {
    expect(refusalOf(() => check({ ticket_ids: [1, 0] })).key).toBe('gateway.ticket_ids_expected');
    expect(refusalOf(() => check({ ticket_ids: [1, 'x', 1] })).key).toBe('gateway.ticket_ids_expected');
    expect(refusalOf(() => check({ ticket_ids: [3, 1, 3] }))).toEqual({
      status: 400,
      key: 'gateway.ticket_ids_repeated',
      args: undefined,
    });
    // The first parameter wrong names the refusal, whichever of its checks it failed.
    expect(refusalOf(() => check({ ticket_ids: [1, 1], status: 7 })).key).toBe('gateway.ticket_ids_repeated');
    expect(refusalOf(() => check({ ticket_ids: [1], status: 3 })).args).toEqual({ name: 'status', min: 0, max: 2 });
  });

  it('checks every value of a map, and refuses a list or text for it', () => {
    for (const versions of [[1], 'x', { '1': 1.5 }, { '1': '2' }]) {
      expect(refusalOf(() => check({ ticket_ids: [1], versions })).key).toBe('gateway.versions_expected');
    }
  });

  it('answers its own refusal for an absent parameter when it names one', () => {
    const photo = bodyParams({
      photo_id: {
        schema: { type: 'string', minLength: 1 },
        refusal: 'gateway.photo_of_service_point',
        missing: ['gateway.param_required', { name: 'photo_id' }],
      },
    });
    expect(refusalOf(() => photo({})).key).toBe('gateway.param_required');
    expect(refusalOf(() => photo({ photo_id: '' })).key).toBe('gateway.photo_of_service_point');
    expect(refusalOf(() => photo({ photo_id: 4 })).key).toBe('gateway.photo_of_service_point');
  });

  it('takes an id as a positive number or as its text, and some value as anything but null or empty', () => {
    const ids = bodyParams({
      id: { schema: ID_VALUE, refusal: ['gateway.param_required', { name: 'id' }] },
      given: { schema: SOME_VALUE, refusal: ['gateway.param_required', { name: 'given' }], optional: true },
    });
    expect(ids({ id: 12, given: 0 })).toEqual({ id: 12, given: 0 });
    expect(ids({ id: '12', given: false }).id).toBe('12');
    for (const id of [0, -1, 1.5, '0', '01', 'x', '', null, true, 12345678901]) {
      expect(refusalOf(() => ids({ id })).args).toEqual({ name: 'id' });
    }
    for (const given of [null, '']) expect(refusalOf(() => ids({ id: 1, given })).args).toEqual({ name: 'given' });
  });

  it('takes only text for the further checks of a query parameter too', () => {
    expect(() =>
      queryParams({
        n: {
          schema: { type: 'string' },
          refusal: 'gateway.x',
          then: [{ schema: { type: 'integer' }, refusal: 'gateway.y' }],
        },
      }),
    ).toThrow(/text/);
  });
});

describe('values shared by the rules', () => {
  it('isSet counts the empty text as not set; isGiven counts it as given', () => {
    expect([undefined, null, '', 0, false, 'a'].map(isSet)).toEqual([false, false, false, true, true, true]);
    expect([undefined, null, '', 0, false, 'a'].map(isGiven)).toEqual([false, false, true, true, true, true]);
  });

  it('optionalVersion answers a whole number or nothing, else 400 gateway.version_required', () => {
    expect(optionalVersion({ version: 3 })).toBe(3);
    expect(optionalVersion({})).toBeUndefined();
    for (const version of ['3', 1.5, null]) {
      expect(refusalOf(() => optionalVersion({ version }))).toMatchObject({
        status: 400,
        key: 'gateway.version_required',
      });
    }
  });
});
