import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/adapter.ts';
import { keptRoles, ROLES_ENDPOINT, type RoleDoc } from '../../server/gateway/caller-access.ts';
import type { ChangeFeed, ChangeListener, RecordChangeNotice } from '../../server/gateway/live/change-feed.ts';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';

const role = (name: string, features: number[]): RoleDoc => ({
  role_name: name,
  partner_type: 'operator',
  partner: 'infinity',
  permissions: features.map((feature_id) => ({ feature_id, has_permission: true })),
});

/** A database that answers role reads from `roles`, counting them; `hold` keeps the next answer until released. */
function fakeDb(roles: Map<string, RoleDoc>) {
  const state = { reads: 0, held: undefined as undefined | (() => void), hold: false };
  const db = {
    async query(_sql: string, params?: unknown[]) {
      state.reads += 1;
      const name = String(params?.[1]);
      // What the database holds when the statement runs, answered at once or when released.
      const answer = { rows: roles.has(name) ? [{ doc: structuredClone(roles.get(name)) }] : [] };
      if (!state.hold) return answer;
      state.hold = false;
      return new Promise((resolve) => (state.held = () => resolve(answer)));
    },
  } as unknown as Db;
  return { db, state };
}

function fakeFeed() {
  const listeners = new Set<ChangeListener>();
  const feed = {
    on: true,
    subscribe(listener: ChangeListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    deliver(notice: RecordChangeNotice) {
      for (const listener of listeners) listener.change(notice);
    },
    resume() {
      for (const listener of listeners) listener.resumed();
    },
    hearing() {
      return feed.on;
    },
    heard: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
  return feed as typeof feed & ChangeFeed;
}

const changed = (key?: string): RecordChangeNotice => ({
  resource: ROLES_ENDPOINT,
  key,
  action: key ? 'update' : 'bulk',
  owners: {},
});

describe('the callers’ roles kept per process', () => {
  it('reads a role once, again after the feed hears it change, and every role after a bulk change or a resume', async () => {
    const roles = new Map([
      ['analyst', role('analyst', [1, 2])],
      ['admin', role('admin', [1])],
    ]);
    const { db, state } = fakeDb(roles);
    const feed = fakeFeed();
    const read = keptRoles(db, feed);
    expect((await read('analyst'))?.permissions).toHaveLength(2);
    await read('analyst');
    await read('admin');
    await read('admin');
    expect(state.reads).toBe(2);

    roles.set('analyst', role('analyst', [1]));
    // Another resource's change, or another role's, leaves it kept.
    feed.deliver({ ...changed('analyst'), resource: 'service_points' });
    feed.deliver(changed('admin'));
    expect((await read('analyst'))?.permissions).toHaveLength(2);
    feed.deliver(changed('analyst'));
    expect((await read('analyst'))?.permissions).toHaveLength(1);
    expect(state.reads).toBe(3);

    feed.deliver(changed());
    await read('analyst');
    await read('admin');
    expect(state.reads).toBe(5);
    feed.resume();
    await read('analyst');
    expect(state.reads).toBe(6);
  });

  it('reads on every call while the feed does not hear, and keeps nothing read meanwhile', async () => {
    const { db, state } = fakeDb(new Map([['analyst', role('analyst', [1])]]));
    const feed = fakeFeed();
    const read = keptRoles(db, feed);
    feed.on = false;
    await read('analyst');
    await read('analyst');
    expect(state.reads).toBe(2);
    feed.on = true;
    await read('analyst');
    await read('analyst');
    expect(state.reads).toBe(3);
  });

  it('does not keep a read that a change overtook, nor an unknown role', async () => {
    const roles = new Map([['analyst', role('analyst', [1, 2])]]);
    const { db, state } = fakeDb(roles);
    const feed = fakeFeed();
    const read = keptRoles(db, feed);
    state.hold = true;
    const pending = read('analyst');
    // The role changes while its read is on its way: the answer may be the old one, so it is not kept.
    roles.set('analyst', role('analyst', [1]));
    feed.deliver(changed('analyst'));
    state.held!();
    expect((await pending)?.permissions).toHaveLength(2);
    expect((await read('analyst'))?.permissions).toHaveLength(1);
    expect(state.reads).toBe(2);

    expect(await read('nobody')).toBeUndefined();
    expect(await read('nobody')).toBeUndefined();
    expect(state.reads).toBe(4);
  });
});

describe('a role changed in the database, on the gateway', () => {
  let stack: Stack;
  let analyst: SigningSession;

  beforeAll(async () => {
    stack = await startStack();
    analyst = await stack.signIn('analyst');
  });
  afterAll(async () => stack?.close());

  const listServicePoints = () =>
    stack.send(analyst, { method: 'GET', path: 'webtool/service_points', query: { limit: 5 } });

  it('answers the next call by the changed role, without reading it on every call', async () => {
    expect((await listServicePoints()).status).toBe(200);
    const reads: string[] = [];
    const query = stack.db.query.bind(stack.db);
    stack.db.query = ((sql: string, params?: unknown[]) => {
      if (params?.[0] === ROLES_ENDPOINT) reads.push(sql);
      return query(sql, params);
    }) as Db['query'];
    try {
      expect((await listServicePoints()).status).toBe(200);
      expect(reads).toEqual([]);
      // Every permission taken away, in SQL, as an administrator's edit through the gateway ends up.
      await stack.db.query(
        `UPDATE records SET doc = jsonb_set(doc, '{permissions}', '[]'::jsonb)
         WHERE resource = $1 AND key = 'operator_infinity_analyst'`,
        [ROLES_ENDPOINT],
      );
      expect((await listServicePoints()).status).toBe(403);
    } finally {
      stack.db.query = query;
    }
  });

  it('answers the next call by a role an administrator saved through the gateway', async () => {
    const superadmin = await stack.signIn('superadmin');
    const carrier = await stack.signIn('carrier');
    const navigation = async () =>
      (
        await stack.send(carrier, {
          method: 'GET',
          path: 'webtool/identity_access/nav_drawer',
          query: { userinfo: '' },
        })
      ).body.data as { role: { role_description_translations: Record<string, string> } };
    expect((await navigation()).role.role_description_translations['fr-FR']).toBe('Administrateur de NordPost');
    const [role] = (
      await stack.send(superadmin, {
        method: 'GET',
        path: 'webtool/identity_access/roles',
        query: { search: 'carrier_1_admin' },
      })
    ).body.data as { role_name: string; version: number }[];
    expect(role.role_name).toBe('carrier_1_admin');
    const saved = await stack.send(superadmin, {
      method: 'PATCH',
      path: 'webtool/identity_access/roles',
      body: {
        role_name: 'carrier_1_admin',
        version: role.version,
        role_description_translations: { 'fr-FR': 'Administratrice de NordPost' },
      },
    });
    expect(saved.status).toBe(200);
    expect((await navigation()).role.role_description_translations['fr-FR']).toBe('Administratrice de NordPost');
  });
});
