import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate, openDb, type Db } from '../../server/db/adapter.ts';
import { openTestDb } from './support/test-db.ts';
import { createIdentity } from '../../server/identity/index.ts';
import { seedDemo } from '../../server/seed/index.ts';
import { allUsers } from '../../server/gateway/identity-access/user-directory.ts';
import {
  loadResources,
  loadSchemas,
  withDefaults,
  writableFields,
  type ResourceDefinition,
} from '../../server/gateway/resource-registry.ts';
import type { Doc } from '../../server/gateway/record-store.ts';
import { createSchemaRegistry } from '../../src/schema/ajv.ts';
import { validateRecord } from '../../src/schema/validate.ts';
import en from '../../locales/en-US.json';
import fr from '../../locales/fr-FR.json';

/**
 * Every demo record must pass the rules its own form applies: a user who opens one and saves it
 * unchanged, or copies it into a new one, must not be refused (issue 11, seed quality).
 */

/** Made without a group on purpose: it shows the single sign-on GroupMissing refusal (spec 01 §5). */
const USERS_WITHOUT_ROLE_ON_PURPOSE = ['sso.nogroup'];

const schemas = loadSchemas();
const registry = createSchemaRegistry(schemas);
/** Endpoints that store nothing: the licence search answers from the badge history (rules/licences.ts). */
const STORES_NOTHING = new Set(['licences']);
const resources = [...loadResources(schemas).values()].filter((resource) => !STORES_NOTHING.has(resource.name));

/**
 * `npm test` seeds the demo once, for the journeys, before this runs (scripts/journey-database.mjs) and names
 * its folder in DEMO_DATA_DIR: this file reads a copy of it. Run alone, it seeds the demo network itself, from
 * nothing: about 60 s idle, minutes on a busy machine.
 */
const seededDemoDir = process.env.DEMO_DATA_DIR;
let db: Db;
let copy: string | undefined;
beforeAll(async () => {
  if (seededDemoDir) {
    copy = mkdtempSync(path.join(tmpdir(), 'seed-validity-'));
    cpSync(seededDemoDir, copy, { recursive: true });
    db = await openDb({ dataDir: copy });
    return;
  }
  db = await openTestDb();
  await migrate(db);
  await seedDemo(db, createIdentity(db, { local: true, log: () => {} }));
}, 600_000);
afterAll(async () => {
  await db?.close();
  if (copy) rmSync(copy, { recursive: true, force: true });
});

async function seededDocs(resource: ResourceDefinition): Promise<Doc[]> {
  if (resource.endpoint === 'identity_access/users') {
    return (await allUsers(db)).filter((user) => !USERS_WITHOUT_ROLE_ON_PURPOSE.includes(user.username));
  }
  const { rows } = await db.query<{ doc: Doc }>('SELECT doc FROM records WHERE resource = $1 ORDER BY key', [
    resource.endpoint,
  ]);
  return rows.map((row) => row.doc);
}

/** "<how> <resource> <record id> <field>: <message>" for every field the validator refuses. */
function refusals(
  how: string,
  resource: ResourceDefinition,
  docs: Doc[],
  check: (doc: Doc) => Record<string, { message: string }>,
) {
  return docs.flatMap((doc) =>
    Object.entries(check(doc)).map(
      ([field, error]) => `${how}: ${resource.name} ${String(doc[resource.id])} ${field}: ${error.message}`,
    ),
  );
}

describe('the seeded demo network', () => {
  it.each(resources.map((resource) => [resource.name, resource] as const))(
    '%s: every record passes its schema, when created and when edited',
    async (_name, resource) => {
      const docs = await seededDocs(resource);
      expect(docs.length).toBeGreaterThan(0);
      const { schemaId } = resource;
      // The create form submits the writable fields; the gateway adds the schema defaults.
      const asCreated = refusals(
        'created',
        resource,
        docs,
        (doc) => validateRecord(registry, schemaId, withDefaults(resource, writableFields(resource, doc))).errors,
      );
      // The edit form validates the whole record; the gateway validates the stored record merged with the PATCH.
      const asEdited = refusals('edited', resource, docs, (doc) => validateRecord(registry, schemaId, doc).errors);
      const asPatched = refusals(
        'patched',
        resource,
        docs,
        (doc) => validateRecord(registry, schemaId, writableFields(resource, doc), { partial: true }).errors,
      );
      expect([...asCreated, ...asEdited, ...asPatched]).toEqual([]);
    },
  );

  it('fills every field of the carrier schema for every carrier', async () => {
    const carriers = resources.find((resource) => resource.name === 'carriers')!;
    const fields = carriers.fields.map((field) => field.source).filter((field) => field !== 'logo_url');
    const missing = (await seededDocs(carriers)).flatMap((doc) =>
      fields.filter((field) => doc[field] === undefined || doc[field] === '').map((field) => `${doc.name} ${field}`),
    );
    expect(missing).toEqual([]);
  });

  it('names every lookup-list item in both languages, the English name being the gateway’s', async () => {
    const { rows } = await db.query<{ doc: { type: string; column_id: number; column_name: string } }>(
      `SELECT doc FROM records WHERE resource = 'lists' ORDER BY key`,
    );
    expect(rows.length).toBeGreaterThan(0);
    const lookupName = (locale: unknown, type: string, id: number) =>
      (locale as { lookups: Record<string, Record<string, string> | undefined> }).lookups[type]?.[id];
    const unnamed = rows.flatMap(({ doc }) =>
      lookupName(en, doc.type, doc.column_id) === doc.column_name && lookupName(fr, doc.type, doc.column_id)
        ? []
        : [`lookups.${doc.type}.${doc.column_id} (${doc.column_name})`],
    );
    expect(unnamed).toEqual([]);
  });
});
