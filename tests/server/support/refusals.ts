import { expect } from 'vitest';
import type { Db } from '../../../server/db/adapter.ts';
import { recordsFingerprint } from './records-fingerprint.ts';

type Doc = Record<string, unknown>;

/** A gateway answer as the tests' signed clients give it. */
export interface Answer {
  status: number;
  body: Doc;
}

/** What a refusal must say; each part left out is not checked. */
export interface Refusal {
  /** The English message of the answer (`message`). */
  message?: string;
  /** The answer's `message_key`; given as `undefined`, the answer must have none. */
  key?: string | undefined;
  /** A field the answer's `errors` name. */
  field?: string;
  /** That field's message key (`errors[field].message`). */
  fieldKey?: string;
}

/** The call is refused with the status and what `expected` says, and nothing is written (`recordsFingerprint`). */
export type ExpectRefused = (call: () => Promise<Answer>, status: number, expected: Refusal) => Promise<Doc>;

/**
 * The refusal checks of a test file's database: `fingerprint` (every record and the audit log, see
 * records-fingerprint.ts) and `expectRefused` on it. Call once per database, in `beforeAll`.
 */
export async function refusalChecks(db: Db) {
  const fingerprint = await recordsFingerprint(db);
  const expectRefused: ExpectRefused = async (call, status, expected) => {
    const before = await fingerprint();
    const answer = await call();
    expect(answer.status).toBe(status);
    if (expected.message !== undefined) expect(answer.body.message).toBe(expected.message);
    if ('key' in expected) expect(answer.body.message_key).toBe(expected.key);
    if (expected.field !== undefined) {
      const errors = (answer.body.errors ?? {}) as Record<string, { message?: string }>;
      if (expected.fieldKey !== undefined) expect(errors[expected.field]?.message).toBe(expected.fieldKey);
      else expect(Object.keys(errors)).toContain(expected.field);
    }
    expect(await fingerprint()).toEqual(before);
    return answer.body;
  };
  return { fingerprint, expectRefused };
}
