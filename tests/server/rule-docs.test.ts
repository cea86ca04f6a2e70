import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, type Db } from '../../server/db/adapter.ts';
import {
  countDocs,
  existsDoc,
  findDocs,
  findKeys,
  findStored,
  readDoc,
  storeFields,
} from '../../server/gateway/rules/shared/docs.ts';
import { COMPARTMENTS, HARDWARE_MODELS, HARDWARE_UNITS, inStore } from '../../server/gateway/rules/shared/endpoints.ts';
import { openTestDb } from './support/test-db.ts';

/** Issue 25.6: the rules' record-store API (rules/shared/docs.ts) on a database of the file's own. */

type Doc = Record<string, unknown>;
let db: Db;

async function store(resource: string, key: string, doc: Doc) {
  await db.query(`INSERT INTO records (resource, key, doc, search) VALUES ($1, $2, $3, '')`, [
    resource,
    key,
    JSON.stringify(doc),
  ]);
}

const compartment = (id: number, hardwareId: number, column: number, position: number, extra: Doc = {}) => ({
  compartment_id: id,
  hardware_id: hardwareId,
  column,
  position,
  size: 'M',
  ...extra,
});

/** A Db that counts the statements sent, to see a refusal comes before any SQL. */
function counting(inner: Db) {
  const sent: string[] = [];
  const wrapped = {
    ...inner,
    query: ((sql: string, params?: unknown[]) => {
      sent.push(sql);
      return inner.query(sql, params);
    }) as Db['query'],
  };
  return { db: wrapped as Db, sent };
}

beforeAll(async () => {
  db = await openTestDb();
  await migrate(db);
  // Columns and positions past 9 order as numbers, not as text.
  await store(COMPARTMENTS, '1', compartment(1, 70, 10, 1));
  await store(COMPARTMENTS, '2', compartment(2, 70, 2, 2, { piece_id: 'P-1' }));
  await store(COMPARTMENTS, '3', compartment(3, 70, 2, 1));
  await store(COMPARTMENTS, '4', compartment(4, 71, 1, 1));
  await store(HARDWARE_UNITS, '70', { hardware_id: 70, name: 'Unit 70', service_point_id: 5, status: 4 });
  await store(HARDWARE_UNITS, '71', { hardware_id: 71, name: 'Unit 71', service_point_id: 5, status: 3 });
  await store(HARDWARE_UNITS, '72', { hardware_id: 72, name: 'Unit 72', service_point_id: 6, status: 4 });
  await store(HARDWARE_MODELS, '9', { hardware_model_id: 9, name: 'Model 9', hardware_type: 1, layout: [] });
});

afterAll(async () => {
  await db?.close();
});

describe('the rules record-store API', () => {
  it('reads one document by its key, a number or text, and undefined when there is none', async () => {
    expect(await readDoc<Doc>(db, HARDWARE_UNITS, 70)).toMatchObject({ name: 'Unit 70' });
    expect(await readDoc<Doc>(db, HARDWARE_UNITS, '71')).toMatchObject({ name: 'Unit 71' });
    expect(await readDoc(db, HARDWARE_UNITS, 99)).toBeUndefined();
    // The same key in another store is another record.
    expect(await readDoc(db, COMPARTMENTS, 70)).toBeUndefined();
    expect(await readDoc<Doc>(db, HARDWARE_MODELS, 9)).toMatchObject({ hardware_type: 1 });
  });

  it('finds by equality on fields (numbers match as their text), a list of values, ordered and limited', async () => {
    const ofUnit = await findDocs<Doc>(db, COMPARTMENTS, {
      where: { hardware_id: 70 },
      orderBy: [
        { field: 'column', numeric: true },
        { field: 'position', numeric: true },
      ],
    });
    expect(ofUnit.map((doc) => doc.compartment_id)).toEqual([3, 2, 1]);
    const byText = await findDocs<Doc>(db, COMPARTMENTS, { where: { hardware_id: 70 }, orderBy: ['column'] });
    expect(byText.map((doc) => doc.column)).toEqual([10, 2, 2]);
    const desc = await findKeys(db, HARDWARE_UNITS, {
      where: { status: [3, 4], service_point_id: 5 },
      orderBy: [{ field: 'hardware_id', desc: true, numeric: true }],
      limit: 1,
    });
    expect(desc).toEqual(['71']);
    const stored = await findStored<Doc>(db, HARDWARE_UNITS, { where: { key: ['70', '72'] }, forUpdate: true });
    expect(stored.map((row) => row.key).sort()).toEqual(['70', '72']);
    expect(stored[0]).toHaveProperty('version');
    expect(await findDocs(db, HARDWARE_UNITS, { where: { status: [] } })).toEqual([]);
  });

  it('matches a field that is not set with null', async () => {
    expect(await findKeys(db, COMPARTMENTS, { where: { hardware_id: 70, piece_id: null }, orderBy: ['key'] })).toEqual([
      '1',
      '3',
    ]);
  });

  it('counts and tests for documents', async () => {
    expect(await countDocs(db, HARDWARE_UNITS, { service_point_id: 5 })).toBe(2);
    expect(await countDocs(db, HARDWARE_UNITS)).toBe(3);
    expect(await countDocs(db, COMPARTMENTS, { hardware_id: 99 })).toBe(0);
    expect(await existsDoc(db, HARDWARE_UNITS, { key: 72 })).toBe(true);
    expect(await existsDoc(db, HARDWARE_UNITS, { key: 73 })).toBe(false);
    expect(await existsDoc(db, COMPARTMENTS, { hardware_id: 71, column: 1 })).toBe(true);
  });

  it('takes values as parameters: a quote or SQL in a value is only text', async () => {
    expect(await findDocs(db, HARDWARE_UNITS, { where: { name: "Unit 70' OR '1'='1" } })).toEqual([]);
    expect(await countDocs(db, HARDWARE_UNITS)).toBe(3);
  });

  it('refuses a field its documents do not have before any SQL is sent', async () => {
    const { db: watched, sent } = counting(db);
    await expect(findDocs(watched, HARDWARE_UNITS, { where: { hardware_idd: 70 } })).rejects.toThrow(
      'Unknown field hardware_idd of store service_points/hardware_units',
    );
    await expect(countDocs(watched, COMPARTMENTS, { "hardware_id' OR 1=1 --": 1 })).rejects.toThrow(/Unknown field/);
    await expect(findDocs(watched, COMPARTMENTS, { orderBy: ['size; DROP TABLE records'] })).rejects.toThrow(
      /Unknown field/,
    );
    await expect(existsDoc(watched, HARDWARE_MODELS, { layoutt: 1 })).rejects.toThrow(/Unknown field/);
    expect(sent).toEqual([]);
  });

  it("knows each store's fields from its schema and names only declared stores", () => {
    expect(storeFields(COMPARTMENTS).has('hardware_id')).toBe(true);
    expect(storeFields(HARDWARE_UNITS).has('service_point_id')).toBe(true);
    expect(inStore(COMPARTMENTS, 'c')).toBe("c.resource = 'compartments'");
    expect(() => inStore('records; --' as never)).toThrow(/Unknown store/);
  });
});
