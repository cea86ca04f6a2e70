import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/adapter.ts';
import { openSeededTestDb } from './support/test-db.ts';

/**
 * Migration 048: `piece_token_codes`, the copy of the pieces' token codes the search looks a pickup code
 * up in (server/gateway/search.ts), stays in step with `records` on every write, in the writing
 * transaction: insert, update (of the tokens or of anything else), delete, a rolled-back write.
 */

let db: Db;
beforeAll(async () => {
  db = await openSeededTestDb();
}, 240_000);
afterAll(() => db?.close());

/** The codes the pieces' documents hold now, as `code piece_key` lines. */
async function derived(): Promise<string[]> {
  const { rows } = await db.query<{ line: string }>(
    `SELECT DISTINCT (t.value->>'code') || ' ' || r.key AS line
     FROM records r, jsonb_array_elements(CASE WHEN jsonb_typeof(r.doc->'tokens') = 'array' THEN r.doc->'tokens' ELSE '[]'::jsonb END) t
     WHERE r.resource = 'shipments' AND jsonb_typeof(t.value->'code') = 'string' ORDER BY 1`,
  );
  return rows.map((row) => row.line);
}

async function stored(): Promise<string[]> {
  const { rows } = await db.query<{ line: string }>(
    `SELECT code || ' ' || piece_key AS line FROM piece_token_codes ORDER BY 1`,
  );
  return rows.map((row) => row.line);
}

async function codesOf(key: string, tx: Db = db): Promise<string[]> {
  const { rows } = await tx.query<{ code: string }>(
    'SELECT code FROM piece_token_codes WHERE piece_key = $1 ORDER BY code',
    [key],
  );
  return rows.map((row) => row.code);
}

const token = (code: unknown, type = 'end_user_pickup') => ({ token_type: type, status: 'available', code });
const piece = (key: string, tokens: unknown) => ({ piece_id: key, piece_barcode: `JJD${key}`, state: 201, tokens });

async function insertPiece(key: string, tokens: unknown, tx: Db = db) {
  await tx.query(`INSERT INTO records (resource, key, doc, search) VALUES ('shipments', $1, $2::jsonb, lower($1))`, [
    key,
    JSON.stringify(piece(key, tokens)),
  ]);
}

describe('piece_token_codes', () => {
  it('holds every text code of every seeded piece, and nothing else', async () => {
    const expected = await derived();
    expect(expected.length).toBeGreaterThan(0);
    expect(await stored()).toEqual(expected);
  });

  it('follows inserts, token changes, other changes and deletes', async () => {
    await insertPiece('TOKTEST1', [token('700001'), token('700002', 'courier_pickup')]);
    // Tokens that are no list, codes that are no text: nothing to copy, and no error.
    await insertPiece('TOKTEST2', { code: '700003' });
    await insertPiece('TOKTEST3', [token(700004), 'loose', null]);
    expect(await codesOf('TOKTEST1')).toEqual(['700001', '700002']);
    expect(await codesOf('TOKTEST2')).toEqual([]);
    expect(await codesOf('TOKTEST3')).toEqual([]);

    // A new code replaces the old one.
    await db.query(
      `UPDATE records SET doc = jsonb_set(doc, '{tokens}', $2::jsonb) WHERE resource = 'shipments' AND key = $1`,
      ['TOKTEST1', JSON.stringify([token('700011'), token('700002', 'courier_pickup')])],
    );
    expect(await codesOf('TOKTEST1')).toEqual(['700002', '700011']);
    // A change of anything else keeps the codes (and does not rewrite them).
    await db.query(
      `UPDATE records SET doc = doc || '{"state": 202}' WHERE resource = 'shipments' AND key = 'TOKTEST1'`,
    );
    expect(await codesOf('TOKTEST1')).toEqual(['700002', '700011']);
    // Tokens given to a piece that had none usable.
    await db.query(
      `UPDATE records SET doc = jsonb_set(doc, '{tokens}', $2::jsonb) WHERE resource = 'shipments' AND key = $1`,
      ['TOKTEST2', JSON.stringify([token('700003')])],
    );
    expect(await codesOf('TOKTEST2')).toEqual(['700003']);
    // Many pieces in one statement, as a bulk job writes them.
    await db.query(
      `UPDATE records SET doc = jsonb_set(doc, '{tokens}', '[]'::jsonb) WHERE resource = 'shipments' AND key IN ('TOKTEST1', 'TOKTEST2')`,
    );
    expect(await codesOf('TOKTEST1')).toEqual([]);
    expect(await codesOf('TOKTEST2')).toEqual([]);
    await db.query(
      `UPDATE records SET doc = jsonb_set(doc, '{tokens}', $2::jsonb) WHERE resource = 'shipments' AND key = $1`,
      ['TOKTEST3', JSON.stringify([token('700004')])],
    );
    expect(await stored()).toEqual(await derived());

    await db.query(`DELETE FROM records WHERE resource = 'shipments' AND key LIKE 'TOKTEST%'`);
    expect(await codesOf('TOKTEST3')).toEqual([]);
    expect(await stored()).toEqual(await derived());
  });

  it('is left as it was by a write that is rolled back', async () => {
    const [existing] = (
      await db.query<{ key: string }>(`SELECT piece_key AS key FROM piece_token_codes ORDER BY piece_key LIMIT 1`)
    ).rows;
    const before = await stored();
    await expect(
      db.transaction(async (tx) => {
        await insertPiece('TOKTEST9', [token('700009')], tx);
        await tx.query(
          `UPDATE records SET doc = jsonb_set(doc, '{tokens}', $2::jsonb) WHERE resource = 'shipments' AND key = $1`,
          [existing.key, JSON.stringify([token('799999')])],
        );
        await tx.query(
          `DELETE FROM records WHERE resource = 'shipments' AND key <> $1 AND key IN (SELECT piece_key FROM piece_token_codes LIMIT 3)`,
          [existing.key],
        );
        // Of that piece: a seeded piece's code hashes its id and its times, which follow the day of the seed, so
        // another piece may hold 799999 on some days (CI's run of 2026-11-28 did).
        expect(await codesOf(existing.key, tx)).toEqual(['799999']);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await stored()).toEqual(before);
    expect(await stored()).toEqual(await derived());
  });

  it('is emptied with the records', async () => {
    let emptied: unknown[] | undefined;
    await expect(
      db.transaction(async (tx) => {
        await tx.query('TRUNCATE records CASCADE');
        emptied = (await tx.query('SELECT 1 FROM piece_token_codes')).rows;
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(emptied).toEqual([]);
    expect(await stored()).toEqual(await derived());
  });
});
