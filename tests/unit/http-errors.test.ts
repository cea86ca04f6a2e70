import { describe, expect, it } from 'vitest';
import { errorMessage, requiredFieldMessages } from '../../src/dataProvider/http-errors.ts';
import { databaseUnavailableBody } from '../../server/gateway/http-error.ts';
import en from '../../locales/en-US.json';
import fr from '../../locales/fr-FR.json';

const ctx = { context: 'Carriers' };

describe('shared HTTP error handling (spec 01 §8)', () => {
  it('401 asks to log in again', () => {
    expect(errorMessage(401, { message: 'whatever' }, ctx)).toEqual({ message: 'http.need_to_login' });
  });

  it('500 shows the response message if present, else the context message', () => {
    expect(errorMessage(500, { message: 'Database down' }, ctx)).toEqual({ message: 'Database down' });
    expect(errorMessage(500, {}, ctx)).toEqual({ message: 'http.server_error', args: { context: 'Carriers' } });
  });

  it('422 shows each message of the nested error list', () => {
    const body = { errors: [{ message: 'Name too long' }, { errors: [{ message: 'Radius too big' }] }] };
    expect(errorMessage(422, body, ctx).message).toBe('Name too long\nRadius too big');
    expect(errorMessage(422, { errors: { name: { message: 'validation.required' } } }, ctx).message).toBe(
      'validation.required',
    );
    expect(errorMessage(422, undefined, ctx)).toEqual({ message: 'http.save_failed' });
  });

  it('400 tries error text, response errors, response message, data message, errors, message, status in turn', () => {
    const full = {
      error: 'error text',
      response: { errors: ['response error'], message: 'response message' },
      data: { message: 'data message' },
      errors: [{ message: 'errors list' }],
      message: 'message',
    };
    expect(errorMessage(400, full, ctx).message).toBe('error text');
    const { error: _e, ...noError } = full;
    expect(errorMessage(400, noError, ctx).message).toBe('response error');
    const noResponseErrors = { ...noError, response: { message: 'response message' } };
    expect(errorMessage(400, noResponseErrors, ctx).message).toBe('response message');
    const { response: _r, ...noResponse } = noError;
    expect(errorMessage(400, noResponse, ctx).message).toBe('data message');
    const { data: _d, ...noData } = noResponse;
    expect(errorMessage(400, noData, ctx).message).toBe('errors list');
    expect(errorMessage(400, { message: 'message' }, ctx).message).toBe('message');
    expect(errorMessage(400, {}, ctx)).toEqual({ message: 'http.status', args: { status: 400 } });
  });

  it('400 with code 313 shows the caller message when given', () => {
    expect(errorMessage(400, { code: 313, message: 'raw' }, { ...ctx, code313Message: 'Custom' }).message).toBe(
      'Custom',
    );
    expect(errorMessage(400, { code: 313, message: 'raw' }, ctx).message).toBe('raw');
  });

  it('403 and 404 show the message; 403 also reads Message', () => {
    expect(errorMessage(403, { Message: 'User is not authorized' }, ctx).message).toBe('User is not authorized');
    expect(errorMessage(403, {}, ctx).message).toBe('http.access_denied');
    expect(errorMessage(404, { message: 'Record not found.' }, ctx).message).toBe('Record not found.');
    expect(errorMessage(404, undefined, ctx).message).toBe('http.not_found');
  });

  it('409 shows the message; a catalogue message key wins so that it can be translated', () => {
    expect(errorMessage(409, { message: 'This email is already registered.' }, ctx).message).toBe(
      'This email is already registered.',
    );
    expect(errorMessage(409, {}, ctx).message).toBe('http.conflict');
    expect(
      errorMessage(409, { message: 'Service point group name already exists', message_key: 'catalogue.x' }, ctx)
        .message,
    ).toBe('catalogue.x');
  });

  it("503 of the gateway's database outage shows its own message, in either language", () => {
    expect(errorMessage(503, { ...databaseUnavailableBody }, ctx)).toEqual({ message: 'http.database_unavailable' });
    expect(en.http.database_unavailable).toBe(
      'The database cannot be reached right now. Please try again in a few seconds.',
    );
    expect(fr.http.database_unavailable).toBe(
      'La base de données est injoignable pour le moment. Veuillez réessayer dans quelques secondes.',
    );
  });

  it('anything else is "<context>: Oops server error"', () => {
    expect(errorMessage(502, { message: 'Bad gateway' }, ctx)).toEqual({
      message: 'http.server_error',
      args: { context: 'Carriers' },
    });
    expect(errorMessage(0, undefined, ctx).args).toEqual({ context: 'Carriers' });
  });

  it('a validation errors array names each field with spaces for underscores', () => {
    expect(requiredFieldMessages([{ field: 'carrier_name' }, { key: 'zip_code' }, { nothing: 1 }])).toEqual([
      { message: 'http.field_required', args: { field: 'carrier name' } },
      { message: 'http.field_required', args: { field: 'zip code' } },
    ]);
    expect(requiredFieldMessages('nope')).toEqual([]);
  });

  it('a 400 or 422 with a validation errors array shows the required message of its field', () => {
    expect(errorMessage(422, { errors: [{ field: 'carrier_name' }] }, ctx)).toEqual({
      message: 'http.field_required',
      args: { field: 'carrier name' },
    });
    expect(errorMessage(400, { errors: [{ key: 'zip_code' }] }, ctx).args).toEqual({ field: 'zip code' });
    expect(errorMessage(422, { errors: [{ field: 'name', message: 'Too long' }] }, ctx).message).toBe('Too long');
  });
});
