import { describe, expect, it } from 'vitest';
import { databaseTrouble, DatabaseUnavailableError, defaultPoolSettings } from '../../server/db/adapter.ts';
import { loadConfig } from '../../server/config.ts';

const failure = (code: string | undefined, message = 'failed') => Object.assign(new Error(message), { code });

describe('telling a database outage from a refused request', () => {
  it.each([
    [failure('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'), 'connection'],
    [failure('ECONNRESET'), 'connection'],
    [failure('57P01', 'terminating connection due to administrator command'), 'connection'],
    [failure('57P03', 'the database system is starting up'), 'connection'],
    [failure('08006'), 'connection'],
    [failure('53300', 'sorry, too many clients already'), 'connection'],
    [new Error('Connection terminated unexpectedly'), 'connection'],
    [new Error('timeout exceeded when trying to connect'), 'connection'],
    [new Error('Query read timeout'), 'connection'],
    [failure('57014', 'canceling statement due to statement timeout'), 'timeout'],
    [new DatabaseUnavailableError(failure('57014')), 'timeout'],
    [new DatabaseUnavailableError('no server'), 'connection'],
  ])('%s is an outage: %s', (error, kind) => {
    expect(databaseTrouble(error)).toBe(kind);
  });

  it.each([
    failure('23505', 'duplicate key value violates unique constraint'),
    failure('42601', 'syntax error at or near "SELEC"'),
    new Error('Record not found.'),
    undefined,
  ])('%s is the request’s own failure', (error) => {
    expect(databaseTrouble(error)).toBeUndefined();
  });
});

describe('pool settings', () => {
  it('default to 10 connections, a 30 s statement timeout and a 5 s connect timeout', () => {
    expect(loadConfig({}).pool).toEqual(defaultPoolSettings);
    expect(defaultPoolSettings).toEqual({ size: 10, statementTimeoutMs: 30_000, connectTimeoutMs: 5_000 });
  });

  it('are read from DATABASE_POOL_SIZE, DATABASE_STATEMENT_TIMEOUT_MS and DATABASE_CONNECT_TIMEOUT_MS', () => {
    const env = {
      DATABASE_POOL_SIZE: '25',
      DATABASE_STATEMENT_TIMEOUT_MS: '0',
      DATABASE_CONNECT_TIMEOUT_MS: '2000',
    };
    expect(loadConfig(env).pool).toEqual({ size: 25, statementTimeoutMs: 0, connectTimeoutMs: 2_000 });
  });

  it.each([
    ['DATABASE_POOL_SIZE', '0', "DATABASE_POOL_SIZE must be a whole number of at least 1, not '0'."],
    ['DATABASE_POOL_SIZE', 'ten', "DATABASE_POOL_SIZE must be a whole number of at least 1, not 'ten'."],
    [
      'DATABASE_STATEMENT_TIMEOUT_MS',
      '-1',
      "DATABASE_STATEMENT_TIMEOUT_MS must be a whole number of at least 0, not '-1'.",
    ],
    [
      'DATABASE_CONNECT_TIMEOUT_MS',
      '1.5',
      "DATABASE_CONNECT_TIMEOUT_MS must be a whole number of at least 1, not '1.5'.",
    ],
  ])('refuse %s=%s at start', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
