import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/adapter.ts';
import { keptCounts } from '../../server/gateway/kept-counts.ts';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';
import type { RecordChangeNotice } from '../../server/gateway/live/change-feed.ts';

/** A feed that hears what a test hands it: a change, or `undefined` for what it cannot tell (a resume). */
function fakeFeed() {
  const heard: (RecordChangeNotice | undefined)[] = [];
  const feed = {
    on: true,
    hear: (change?: Partial<RecordChangeNotice>) =>
      heard.push(change && { resource: 'service_points', action: 'update', owners: {}, ...change }),
    hearing: () => feed.on,
    changesHeard: () => heard.length,
    changesSince: (mark: number) => {
      const since = heard.slice(mark);
      return since.every((change) => change !== undefined) ? (since as RecordChangeNotice[]) : undefined;
    },
  };
  return feed;
}

const search = { resource: 'service_points', fields: ['@search'] };
const rows = { resource: 'service_points', fields: [] };

describe('the lists’ counts kept per process', () => {
  it('keeps a count until the feed hears a change that may move it or resumes, and nothing while it does not hear', () => {
    const feed = fakeFeed();
    const counts = keptCounts(feed);
    counts.keep('a', 7, counts.mark(), search);
    expect(counts.get('a')).toBe(7);
    expect(counts.get('b')).toBeUndefined();
    // A resume (the feed may have missed changes) ends it.
    feed.hear();
    expect(counts.get('a')).toBeUndefined();
    counts.keep('a', 8, counts.mark(), search);
    expect(counts.get('a')).toBe(8);

    feed.on = false;
    expect(counts.get('a')).toBeUndefined();
    expect(counts.mark()).toBeUndefined();
    counts.keep('b', 1, counts.mark(), search);
    feed.on = true;
    expect(counts.get('b')).toBeUndefined();
  });

  it('outlives the changes that cannot move it, and no other', () => {
    const feed = fakeFeed();
    const counts = keptCounts(feed);
    counts.keep('search', 7, counts.mark(), search);
    counts.keep('rows', 2404, counts.mark(), rows);
    counts.keep('city', 12, counts.mark(), { resource: 'service_points', fields: ['city', 'status'] });
    // A comment saved; a change of another resource's searched text.
    feed.hear({ changed: ['comments'] });
    feed.hear({ resource: 'couriers', action: 'insert' });
    feed.hear({ resource: 'couriers', changed: ['@search'] });
    expect([counts.get('search'), counts.get('rows'), counts.get('city')]).toEqual([7, 2404, 12]);
    // The searched text moved: the search's count ends; an update moves no row count.
    feed.hear({ changed: ['@search', 'name'] });
    expect([counts.get('search'), counts.get('rows'), counts.get('city')]).toEqual([undefined, 2404, 12]);
    // An update whose fields the feed cannot name may have moved any count but the rows'.
    feed.hear({ changed: undefined });
    expect([counts.get('rows'), counts.get('city')]).toEqual([undefined, undefined]);
    counts.keep('city', 13, counts.mark(), { resource: 'service_points', fields: ['city', 'status'] });
    feed.hear({ changed: ['status'] });
    expect(counts.get('city')).toBeUndefined();
    // A record added, deleted, or many changed at once: every count of its resource ends.
    for (const action of ['insert', 'delete', 'bulk'] as const) {
      counts.keep('rows', 1, counts.mark(), rows);
      feed.hear({ action, changed: undefined });
      expect(counts.get('rows')).toBeUndefined();
    }
  });

  it('does not keep a count that a change overtook', () => {
    const feed = fakeFeed();
    const counts = keptCounts(feed);
    const mark = counts.mark();
    // A change heard between the mark (before the counting snapshot) and the count's end: it may be missing.
    feed.hear({ changed: ['@search'] });
    counts.keep('a', 3, mark, search);
    expect(counts.get('a')).toBeUndefined();
    // One that cannot move it does not stop it being kept.
    const next = counts.mark();
    feed.hear({ changed: ['comments'] });
    counts.keep('a', 4, next, search);
    expect(counts.get('a')).toBe(4);
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

  /** Runs `work` noting each statement the gateway sends, `BEGIN` for each transaction it opens. */
  async function noting(work: (statements: string[]) => Promise<void>) {
    const statements: string[] = [];
    const query = stack.db.query.bind(stack.db);
    const transaction = stack.db.transaction.bind(stack.db);
    const noted = (db: Db) =>
      ((sql: string, params?: unknown[]) => {
        statements.push(sql.replace(/\s+/g, ' ').trim());
        return db.query(sql, params);
      }) as Db['query'];
    stack.db.query = noted({ query } as Db);
    stack.db.transaction = ((work: (tx: Db) => Promise<unknown>, options?: unknown) => {
      statements.push('BEGIN');
      return (transaction as (w: (tx: Db) => Promise<unknown>, o?: unknown) => Promise<unknown>)(
        (tx) =>
          work(new Proxy(tx, { get: (target, key) => (key === 'query' ? noted(target) : Reflect.get(target, key)) })),
        options,
      );
    }) as Db['transaction'];
    try {
      await work(statements);
    } finally {
      stack.db.query = query;
      stack.db.transaction = transaction;
    }
  }
  /** What the gateway read: not the marker of the change feed's `heard()`. */
  const read = (statements: string[]) => statements.filter((sql) => !sql.includes('pg_notify'));
  const countsOf = (statements: string[]) =>
    statements.filter((sql) => /^SELECT count\(\*\) AS n FROM (records|record_search_texts) WHERE/.test(sql));
  const firstServicePoint = "(SELECT min(key) FROM records WHERE resource = 'service_points')";
  const sql = (text: string) => stack.db.query(text);

  it('counts a search once, sorted or paged again, and again after its matches may have moved', async () => {
    await noting(async (statements) => {
      expect(await search('name')).toBe(0);
      expect(countsOf(statements)).toHaveLength(1);
      expect(await search('city', 15)).toBe(0);
      expect(await search('service_point_id')).toBe(0);
      expect(countsOf(statements)).toHaveLength(1);

      // One record's search text changed in SQL: the records' triggers publish it, every process hears it.
      await sql(
        `UPDATE records SET search = search || ' zzkeptcount' WHERE resource = 'service_points' AND key = ${firstServicePoint}`,
      );
      await stack.app.live.feed.heard();
      expect(await search('name')).toBe(1);
      expect(countsOf(statements)).toHaveLength(2);
      expect(await search('city')).toBe(1);
      expect(countsOf(statements)).toHaveLength(2);
    });
  });

  it('hears of each update the fields it changed, as the counts need them (migrations 051, 053)', async () => {
    const heard: RecordChangeNotice[] = [];
    const stop = stack.app.live.feed.subscribe({ change: (notice) => heard.push(notice), resumed: () => undefined });
    const key = (await sql(firstServicePoint)).rows[0] as { min: string };
    const owner = (await sql(`SELECT partner_id FROM records WHERE resource = 'service_points' AND key = '${key.min}'`))
      .rows[0] as { partner_id: string | null };
    /** Saves `set` on the first service point in SQL: the fields its notice names. */
    const changedBy = async (set: string) => {
      heard.length = 0;
      await sql(`UPDATE records SET ${set} WHERE resource = 'service_points' AND key = '${key.min}'`);
      await stack.app.live.feed.heard();
      const notices = heard.filter((notice) => notice.key === key.min && notice.action === 'update');
      expect(notices).toHaveLength(1);
      return notices[0].changed;
    };
    try {
      expect(await changedBy(`doc = doc || '{"comments": "zz heard"}'`)).toEqual(['comments']);
      expect(await changedBy(`doc = doc || '{"comments": "zz heard"}'`)).toEqual([]);
      expect(await changedBy(`doc = (doc - 'comments') || '{"city": "Zz City", "opening_hours": {}}'`)).toEqual([
        'city',
        'comments',
        'opening_hours',
      ]);
      expect(await changedBy(`search = search || ' zzheard'`)).toEqual(['@search']);
      expect(await changedBy(`partner_id = 'zz-partner'`)).toEqual(['@partner']);
    } finally {
      stop();
      await stack.db.query(`UPDATE records SET partner_id = $1 WHERE resource = 'service_points' AND key = $2`, [
        owner.partner_id,
        key.min,
      ]);
    }
  });

  it('keeps the counts through a save that cannot move them, and then reads a page in one statement', async () => {
    await search('name');
    await noting(async (statements) => {
      // A comment saved: not searched, not filtered on.
      await sql(
        `UPDATE records SET doc = doc || '{"comments": "zz kept"}', version = version + 1
         WHERE resource = 'service_points' AND key = ${firstServicePoint}`,
      );
      await stack.app.live.feed.heard();
      statements.length = 0;
      expect(await search('city')).toBe(1);
      expect(read(statements), statements.join('\n')).toHaveLength(1);
      expect(countsOf(statements)).toEqual([]);

      // The whole list: its row count is kept once read, and an update does not move it.
      const list = () =>
        stack.send(operator, { method: 'GET', path: 'webtool/service_points', query: { offset: 15, limit: 15 } });
      const first = await list();
      statements.length = 0;
      const again = await list();
      expect(again.body.total).toBe(first.body.total);
      expect(read(statements)).toHaveLength(1);
      expect(read(statements)[0]).toMatch(/^SELECT records\.doc, records\.version FROM/);

      // A service point added: every count of the resource ends, the list counts again.
      await sql(
        `INSERT INTO records (resource, key, doc, search)
         SELECT resource, '9999999', jsonb_set(doc, '{service_point_id}', '9999999'), search || ' zzkeptcount'
         FROM records WHERE resource = 'service_points' AND key = ${firstServicePoint}`,
      );
      await stack.app.live.feed.heard();
      statements.length = 0;
      expect((await list()).body.total).toBe(Number(first.body.total) + 1);
      expect(read(statements)[0]).toBe('BEGIN');
      expect(await search('name')).toBe(2);
      expect(countsOf(statements)).toHaveLength(1);
    });
  });
});
