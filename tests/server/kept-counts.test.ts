import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/adapter.ts';
import { keptCounts } from '../../server/gateway/kept-counts.ts';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';

function fakeFeed() {
  return { on: true, heard: 0, hearing: () => feed.on, changesHeard: () => feed.heard };
}
let feed = fakeFeed();

describe('the lists’ match counts kept per process', () => {
  it('keeps a count until the feed hears any change or resumes, and nothing while it does not hear', () => {
    feed = fakeFeed();
    const counts = keptCounts(feed);
    counts.keep('a', 7, counts.mark());
    expect(counts.get('a')).toBe(7);
    expect(counts.get('b')).toBeUndefined();
    // Any change of any record (or a resume, which the feed counts alike).
    feed.heard += 1;
    expect(counts.get('a')).toBeUndefined();
    counts.keep('a', 8, counts.mark());
    expect(counts.get('a')).toBe(8);

    feed.on = false;
    expect(counts.get('a')).toBeUndefined();
    expect(counts.mark()).toBeUndefined();
    counts.keep('b', 1, counts.mark());
    feed.on = true;
    expect(counts.get('b')).toBeUndefined();
  });

  it('does not keep a count that a change overtook', () => {
    feed = fakeFeed();
    const counts = keptCounts(feed);
    const mark = counts.mark();
    // A change heard between the mark (before the counting snapshot) and the count's end: it may be missing.
    feed.heard += 1;
    counts.keep('a', 3, mark);
    expect(counts.get('a')).toBeUndefined();
  });
});

describe('a search’s count on the gateway', () => {
  let stack: Stack;
  let operator: SigningSession;

  beforeAll(async () => {
    stack = await startStack();
    operator = await stack.signIn('operator');
  });
  afterAll(async () => stack?.close());

  const search = async (order_by: string, offset = 0) => {
    const response = await stack.send(operator, {
      method: 'GET',
      path: 'webtool/service_points',
      query: { search: 'zzkeptcount', order_by, order_by_dir: 'DESC', offset, limit: 15 },
    });
    expect(response.status).toBe(200);
    return response.body.total;
  };

  it('counts a search once, sorted or paged again, and again after any record changed', async () => {
    const counted: string[] = [];
    const query = stack.db.query.bind(stack.db);
    const transaction = stack.db.transaction.bind(stack.db);
    const counting = (db: Db) =>
      ((sql: string, params?: unknown[]) => {
        if (/^SELECT count\(\*\) AS n FROM records WHERE/.test(sql)) counted.push(sql);
        return db.query(sql, params);
      }) as Db['query'];
    stack.db.query = counting({ query } as Db);
    stack.db.transaction = ((work: (tx: Db) => Promise<unknown>, options?: unknown) =>
      (transaction as (w: (tx: Db) => Promise<unknown>, o?: unknown) => Promise<unknown>)(
        (tx) =>
          work(
            new Proxy(tx, { get: (target, key) => (key === 'query' ? counting(target) : Reflect.get(target, key)) }),
          ),
        options,
      )) as Db['transaction'];
    try {
      expect(await search('name')).toBe(0);
      expect(counted).toHaveLength(1);
      expect(await search('city', 15)).toBe(0);
      expect(await search('service_point_id')).toBe(0);
      expect(counted).toHaveLength(1);

      // One record's search text changed in SQL: the records' triggers publish it, every process hears it.
      await query(
        `UPDATE records SET search = search || ' zzkeptcount'
         WHERE resource = 'service_points' AND key = (SELECT min(key) FROM records WHERE resource = 'service_points')`,
      );
      expect(await search('name')).toBe(1);
      expect(counted).toHaveLength(2);
      expect(await search('city')).toBe(1);
      expect(counted).toHaveLength(2);
    } finally {
      stack.db.query = query;
      stack.db.transaction = transaction;
    }
  });
});
