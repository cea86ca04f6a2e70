import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { demoUsers } from '../../server/seed/demo-network.ts';
import { loadResources, loadSchemas, type ResourceDefinition } from '../../server/gateway/resource-registry.ts';
import { identityAccessRoutes } from '../../server/gateway/identity-access.ts';
import { startStack, type Stack } from './support/stack.ts';
import { recordsFingerprint } from './support/records-fingerprint.ts';
import { features as featureIds, type FeatureName } from '../../src/schema/features.ts';

/**
 * Partner tenancy, generated from the schemas: every resource served by the generic handler x
 * every demo user x list, read, create, update and delete. The expected outcome is computed from
 * the schema (`partnerTypes`, `feature`, `tenancy`) and the seeded role of the user, never from
 * the gateway's own helpers. Writing needs what `x-resource.actions` names per action (levels and
 * partner types), the advance level of an allowed partner type when it names nothing.
 */

type Doc = Record<string, unknown>;
type Tenancy = Record<string, string>;
type WriteAction = 'create' | 'edit' | 'delete';
interface Meta {
  partnerTypes?: string[] | 'All';
  /** The feature by its name (src/schema/features.ts). */
  feature?: FeatureName;
  actions?: Partial<Record<WriteAction, { levels?: string[]; partnerTypes?: string[] | 'All' }>>;
  tenancy?: Tenancy;
  scoutEndpoint?: string;
}
interface Role {
  role_name: string;
  role_description?: string;
  partner_type: string;
  partner: string;
  permissions: { feature_id: number; has_permission: boolean }[];
}
interface Expectation {
  canRead: boolean;
  can: Record<WriteAction, boolean>;
  /** The owner field and value the caller is confined to; 'all' sees everything, 'none' nothing. */
  scope: { field: string; value: string } | 'all' | 'none';
}
interface Fixture {
  key: string;
  doc: Doc;
}

const roleUsers = demoUsers.filter((user) => user.role && !user.username.startsWith('sso.'));
const special = new Set(Object.keys(identityAccessRoutes({} as never)).map((route) => route.split(' ')[1]));
// The licence search stores nothing to scope: who may search is tested in tests/server/licences.test.ts.
special.add('hardware/license');
const resources = [...loadResources().values()].filter((resource) => !special.has(resource.endpoint));

let stack: Stack;
const sessions = new Map<string, SigningSession>();
const roles = new Map<string, Role>();

beforeAll(async () => {
  stack = await startStack();
  for (const user of roleUsers) {
    sessions.set(user.username, await stack.signIn(user.username));
    const found = await stack.db.query<{ doc: Role }>(
      `SELECT doc FROM records WHERE resource = 'identity_access/roles' AND key = $1`,
      [user.role],
    );
    roles.set(user.username, found.rows[0].doc);
  }
});
afterAll(() => stack?.close());

// Read from the schema as written, not through the gateway's reader: the expectations stay independent of it.
const schemasById = new Map(loadSchemas().map((schema) => [schema.$id, schema]));
const metaOf = (resource: ResourceDefinition) => schemasById.get(resource.schemaId)?.['x-resource'] as Meta;

function expectationFor(resource: ResourceDefinition, role: Role): Expectation {
  const meta = metaOf(resource);
  const superAdmin = /Super/.test(role.role_description ?? '') && role.role_name.startsWith('operator_');
  const granted = new Set(role.permissions.filter((p) => p.has_permission).map((p) => p.feature_id));
  const holds = (id: number | undefined) => superAdmin || (id !== undefined && granted.has(id));
  const typeAllowed =
    superAdmin || meta.partnerTypes === undefined || meta.partnerTypes === 'All'
      ? true
      : meta.partnerTypes.includes(role.partner_type);
  const features: { basic?: number; advance?: number; scout?: number } | undefined = meta.feature
    ? featureIds[meta.feature]
    : undefined;
  // A scout-only user of a resource with a scout path (service_points/scouts) is refused its plain endpoint.
  const scoutPathOnly =
    Boolean(meta.scoutEndpoint) && !superAdmin && !holds(features?.advance) && holds(features?.scout);
  const canRead =
    typeAllowed && !scoutPathOnly && (!features || [features.advance, features.scout, features.basic].some(holds));
  const levels = superAdmin || !features ? ['advance', 'scout', 'basic'] : [];
  if (features && holds(features.advance)) levels.push('advance');
  if (features && holds(features.scout)) levels.push('scout');
  if (features && holds(features.basic)) levels.push('basic');
  const may = (action: WriteAction) => {
    const rule = meta.actions?.[action];
    const types = rule?.partnerTypes ?? 'All';
    const level = levels[0];
    return (
      canRead &&
      (superAdmin ||
        ((rule?.levels ?? ['advance']).includes(level) && (types === 'All' || types.includes(role.partner_type))))
    );
  };
  const can = { create: may('create'), edit: may('edit'), delete: may('delete') };
  const seesAll = superAdmin || role.partner_type === 'operator';
  const field = meta.tenancy?.[role.partner_type];
  const scope =
    seesAll || !meta.tenancy || field === '*' ? 'all' : field ? { field, value: String(role.partner) } : 'none';
  return { canRead, can, scope };
}

const owns = (scope: Expectation['scope'], doc: Doc) =>
  scope === 'all' || (scope !== 'none' && String(doc[scope.field] ?? '') === scope.value);

/**
 * Resources with no owner field of their own, whose records belong to a partner through another
 * resource's records: an end user is a carrier's (or a support provider's) when one of its pieces is.
 */
const ownedThrough: Record<string, { endpoint: string; key: string }> = {
  'shipments/endusers': { endpoint: 'shipments', key: 'enduser_id' },
};
const resourceAt = (endpoint: string) => [...loadResources().values()].find((r) => r.endpoint === endpoint)!;

/** Which records the caller owns: by the schema's owner field, or through the records of `ownedThrough`. */
async function ownership(resource: ResourceDefinition, role: Role, expected: Expectation) {
  const via = ownedThrough[resource.endpoint];
  if (!via) return (doc: Doc) => owns(expected.scope, doc);
  const viaScope = expectationFor(resourceAt(via.endpoint), role).scope;
  if (viaScope === 'all' || viaScope === 'none') return () => viaScope === 'all';
  const found = await stack.db.query<{ key: string }>(
    `SELECT DISTINCT doc->>'${via.key}' AS key FROM records WHERE resource = $1 AND doc->>'${viaScope.field}' = $2`,
    [via.endpoint, viaScope.value],
  );
  const keys = new Set(found.rows.map((row) => row.key));
  return (doc: Doc) => keys.has(String(doc[resource.id]));
}

async function allRecords(resource: ResourceDefinition) {
  const found = await stack.db.query<{ key: string; doc: Doc; version: number }>(
    'SELECT key, doc, version FROM records WHERE resource = $1 ORDER BY key',
    [resource.endpoint],
  );
  return found.rows;
}

/** One record owned by partner 1 and one by partner 2 for every owner field of the schema. */
async function fixturesOf(resource: ResourceDefinition): Promise<Fixture[]> {
  const records = await allRecords(resource);
  const via = ownedThrough[resource.endpoint];
  if (via) {
    // A record of partner 1's and one of partner 2's through each owner field of the other resource.
    const keys = new Set<string>();
    for (const field of new Set(Object.values(metaOf(resourceAt(via.endpoint)).tenancy ?? {}))) {
      for (const owner of ['1', '2']) {
        const found = await stack.db.query<{ key: string }>(
          `SELECT doc->>'${via.key}' AS key FROM records WHERE resource = $1 AND doc->>'${field}' = $2 LIMIT 1`,
          [via.endpoint, owner],
        );
        if (found.rows[0]) keys.add(found.rows[0].key);
      }
    }
    return records.filter((record) => keys.has(String(record.doc[resource.id])));
  }
  const fields = [...new Set(Object.values(metaOf(resource).tenancy ?? {}).filter((f) => f !== '*'))];
  const picked = new Map<string, Fixture>();
  for (const field of fields) {
    for (const owner of ['1', '2']) {
      const record = records.find((r) => String(r.doc[field] ?? '') === owner);
      if (record) picked.set(record.key, record);
    }
  }
  if (!picked.size && records.length) picked.set(records[0].key, records[0]);
  return [...picked.values()];
}

/** A fingerprint of every stored record and audit entry: a refused call must leave it unchanged. */
let fingerprint: Awaited<ReturnType<typeof recordsFingerprint>> | undefined;
async function snapshot() {
  fingerprint ??= await recordsFingerprint(stack.db);
  return fingerprint();
}

async function currentVersion(resource: ResourceDefinition, key: string) {
  const found = await stack.db.query<{ version: number }>(
    'SELECT version FROM records WHERE resource = $1 AND key = $2',
    [resource.endpoint, key],
  );
  return found.rows[0].version;
}

function foreignOwnerValue(resource: ResourceDefinition, scope: { field: string; value: string }) {
  const other = scope.value === '1' ? '2' : '1';
  const type = resource.fieldsBySource.get(scope.field)?.type;
  return type === 'integer' || type === 'number' ? Number(other) : other;
}

/** A create body built from a fixture: the id and read-only fields dropped. */
function createBodyFrom(resource: ResourceDefinition, doc: Doc): Doc {
  const body: Doc = { ...doc };
  delete body[resource.id];
  for (const field of resource.fields) {
    if (field.readOnly) delete body[field.source];
  }
  return body;
}

const counted = { calls: 0, refusedWrites: 0 };

describe.each(resources.map((resource) => [resource.endpoint, resource] as const))('%s', (_endpoint, resource) => {
  it.each(roleUsers.map((user) => [user.username] as const))('is scoped for %s', async (username) => {
    const session = sessions.get(username)!;
    const expected = expectationFor(resource, roles.get(username)!);
    const fixtures = await fixturesOf(resource);
    expect(fixtures.length).toBeGreaterThan(0);
    const isMine = await ownership(resource, roles.get(username)!, expected);
    const path = `webtool/${resource.endpoint}`;
    const problems: string[] = [];
    const send = async (request: Parameters<Stack['send']>[1]) => {
      counted.calls += 1;
      return stack.send(session, request);
    };
    const check = (label: string, actual: number, wanted: number | number[]) => {
      const allowed = Array.isArray(wanted) ? wanted : [wanted];
      if (!allowed.includes(actual)) problems.push(`${label}: got ${actual}, expected ${allowed.join(' or ')}`);
    };
    /** A call that must be refused: no 2xx, and nothing written. */
    const refused = async (label: string, request: Parameters<Stack['send']>[1], wanted: number | number[]) => {
      const before = await snapshot();
      const answer = await send(request);
      check(label, answer.status, wanted);
      if (typeof answer.body.message !== 'string') problems.push(`${label}: no message`);
      const after = await snapshot();
      if (after.records !== before.records || after.audit !== before.audit) problems.push(`${label}: database changed`);
      counted.refusedWrites += request.method === 'GET' ? 0 : 1;
    };
    const readStatus = expected.canRead ? (expected.scope === 'none' ? 403 : 200) : 403;
    const refusedStatus = (action: WriteAction) => (expected.can[action] ? 404 : 403);

    // list
    const listed = await send({ method: 'GET', path, query: { limit: 1000 } });
    check('list', listed.status, readStatus);
    if (listed.status === 200) {
      const data = listed.body.data as Doc[];
      const stored = await allRecords(resource);
      const mine = stored.filter((record) => isMine(record.doc));
      const foreign = data.filter((doc) => !isMine(doc));
      if (foreign.length) problems.push(`list: ${foreign.length} foreign records`);
      if (listed.body.total !== mine.length) problems.push(`list: total ${listed.body.total}, owned ${mine.length}`);
    }

    for (const fixture of fixtures) {
      const key = fixture.doc[resource.id] as string | number;
      const mine = isMine(fixture.doc);
      const label = (verb: string) => `${verb} ${key} (${mine ? 'own' : 'foreign'})`;

      // read by id
      const read = await send({ method: 'GET', path, query: { [resource.id]: key } });
      check(label('read'), read.status, readStatus);
      if (read.status === 200) {
        const ids = (read.body.data as Doc[]).map((doc) => String(doc[resource.id]));
        if (mine && !(ids.length === 1 && ids[0] === String(key))) problems.push(`${label('read')}: not found`);
        if (!mine && ids.length) problems.push(`${label('read')}: foreign record returned`);
      }

      const version = await currentVersion(resource, fixture.key);
      if (!mine || !expected.can.delete) {
        await refused(
          label('delete'),
          { method: 'DELETE', path, body: { [resource.id]: key, version } },
          mine ? 403 : refusedStatus('delete'),
        );
      } else {
        // A stale delete reaches the version check (so it was found).
        await refused(
          label('stale delete'),
          { method: 'DELETE', path, body: { [resource.id]: key, version: -1 } },
          409,
        );
      }
      if (!mine || !expected.can.edit) {
        await refused(
          label('update'),
          { method: 'PATCH', path, body: { [resource.id]: key, version } },
          mine ? 403 : refusedStatus('edit'),
        );
        continue;
      }

      // Own record: an update goes through.
      const updated = await send({ method: 'PATCH', path, body: { [resource.id]: key, version } });
      check(label('update'), updated.status, 200);
      if (typeof expected.scope === 'object') {
        const owner = foreignOwnerValue(resource, expected.scope);
        await refused(
          label('update to foreign owner'),
          { method: 'PATCH', path, body: { [resource.id]: key, version: version + 1, [expected.scope.field]: owner } },
          // When the owner field is the id itself, the body names another record: not found.
          expected.scope.field === resource.id ? 404 : 403,
        );
      }
    }

    // create
    const template = createBodyFrom(resource, fixtures[0].doc);
    if (!expected.can.create) {
      await refused('create', { method: 'POST', path, body: template }, 403);
    } else if (typeof expected.scope === 'object' && expected.scope.field === resource.id) {
      // The record is the partner itself: a new one would belong to a new partner.
      await refused('create of another partner', { method: 'POST', path, body: template }, 403);
    } else if (typeof expected.scope === 'object') {
      const owner = foreignOwnerValue(resource, expected.scope);
      await refused(
        'create for a foreign owner',
        { method: 'POST', path, body: { ...template, [expected.scope.field]: owner } },
        403,
      );
      const { [expected.scope.field]: _owner, ...ownerless } = template;
      const created = await send({ method: 'POST', path, body: ownerless });
      // The template may clash with a uniqueness rule (422); tenancy must not refuse it.
      check('create with the owner left out', created.status, [201, 422]);
      if (created.status === 201) {
        const stored = (created.body.data as Doc)[expected.scope.field];
        if (String(stored) !== expected.scope.value) problems.push(`create: owner set to ${String(stored)}`);
      }
    }

    expect(problems).toEqual([]);
  });
});

describe('the matrix', () => {
  it('covered every generic resource and made refused writes', () => {
    expect(resources.length).toBeGreaterThanOrEqual(4);
    expect(counted.calls).toBeGreaterThan(resources.length * roleUsers.length * 3);
    expect(counted.refusedWrites).toBeGreaterThan(0);
  });
});
