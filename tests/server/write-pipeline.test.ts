import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { createSchemaRegistry } from '../../src/schema/ajv.ts';
import { validateRecord } from '../../src/schema/validate.ts';
import { resolveAccess, type CallerAccess } from '../../server/gateway/caller-access.ts';
import { HttpError } from '../../server/gateway/http-error.ts';
import type { Doc } from '../../server/gateway/record-store.ts';
import { loadResources, loadSchemas, type ResourceDefinition } from '../../server/gateway/resource-registry.ts';
import type { ResourceRules } from '../../server/gateway/resource-rules.ts';
import { courierRules } from '../../server/gateway/rules/partners/couriers.ts';
import { createWritePipeline, type RecordValidator } from '../../server/gateway/write-pipeline.ts';
import { startStack, type Stack } from './support/stack.ts';

let stack: Stack;
let operator: SigningSession;
let access: CallerAccess;
let couriers: ResourceDefinition;
const schemas = loadSchemas();
const registry = createSchemaRegistry(schemas);
const resources = loadResources(schemas);
const schemaValidator: RecordValidator = (resource, doc, { partial }) =>
  validateRecord(registry, resource.schemaId, doc, { partial });

beforeAll(async () => {
  stack = await startStack();
  operator = await stack.signIn('operator');
  access = await resolveAccess(stack.db, { username: 'operator', groups: ['operator_infinity_admin'], via: 'sigv4' });
  couriers = resources.get('couriers')!;
});
afterAll(() => stack.close());

/** The courier pipeline with its real validator and rules, each stage noted as it runs. */
function recordedPipeline(overrides: { validate?: RecordValidator; rules?: ResourceRules } = {}) {
  const stages: string[] = [];
  const validate: RecordValidator = (resource, doc, options) => {
    stages.push('validate');
    return (overrides.validate ?? schemaValidator)(resource, doc, options);
  };
  const rules = overrides.rules ?? courierRules;
  const recordedRules: ResourceRules = {
    ...rules,
    async beforeWrite(ctx, doc, existing) {
      stages.push('rules');
      return rules.beforeWrite?.(ctx, doc, existing);
    },
  };
  const writesOf = createWritePipeline({
    db: stack.db,
    resources,
    validate,
    rules: { couriers: recordedRules },
  });
  return { stages, writes: writesOf(access, couriers) };
}

async function couriersCoded(code: string) {
  const found = await stack.db.query<{ key: string }>(
    `SELECT key FROM records WHERE resource = 'couriers' AND doc->>'code' = $1`,
    [code],
  );
  return found.rows.map((row) => row.key);
}

async function auditRowsOf(keys: string[]) {
  const found = await stack.db.query<{ action: string }>(
    `SELECT action FROM audit_log WHERE resource = 'couriers' AND key = ANY($1::text[]) ORDER BY id`,
    [keys],
  );
  return found.rows.map((row) => row.action);
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the write was refused'),
    (error: unknown) => error as HttpError,
  );

describe('the write pipeline', () => {
  it('prepares the record before the schema sees it, then runs rules, write and audit', async () => {
    let validated: Doc | undefined;
    const { stages, writes } = recordedPipeline({
      validate: (resource, doc, options) => {
        validated = doc;
        return schemaValidator(resource, doc, options);
      },
    });
    const created = await writes.create({ carrier_id: 1, code: 'pipe-1', version: 7, opname: 'x', courier_id: 999 });

    expect(stages).toEqual(['validate', 'rules']);
    // Control fields and readOnly fields are dropped, defaults filled in, the id is a placeholder.
    expect(validated).toEqual({
      carrier_id: 1,
      code: 'pipe-1',
      box_inspection: false,
      active: true,
      language: 'en',
      courier_id: 1,
    });
    const keys = await couriersCoded('pipe-1');
    expect(keys).toEqual([String(created.courier_id)]);
    expect(created.version).toBe(1);
    expect(await auditRowsOf(keys)).toEqual(['create']);
  });

  it('never runs the rules on a record the schema refuses, and writes nothing', async () => {
    const { stages, writes } = recordedPipeline();
    const error = await refusal(writes.create({ carrier_id: 1, code: 'p' }));

    expect(error.status).toBe(422);
    expect(error.details.errors).toMatchObject({ code: { message: 'validation.min_length' } });
    expect(stages).toEqual(['validate']);
    expect(await couriersCoded('p')).toEqual([]);
  });

  it('writes neither the record nor an audit row when a rule refuses it', async () => {
    const auditBefore = await stack.db.query<{ n: string }>('SELECT count(*) AS n FROM audit_log');
    const { stages, writes } = recordedPipeline();
    const error = await refusal(writes.create({ carrier_id: 999, code: 'pipe-2' }));

    expect(error.status).toBe(422);
    expect(error.details.errors).toEqual({ carrier_id: { message: 'validation.unknown_reference' } });
    expect(stages).toEqual(['validate', 'rules']);
    expect(await couriersCoded('pipe-2')).toEqual([]);
    const auditAfter = await stack.db.query<{ n: string }>('SELECT count(*) AS n FROM audit_log');
    expect(auditAfter.rows[0].n).toBe(auditBefore.rows[0].n);
  });

  it('undoes what the rules wrote when the write itself fails (a stale version)', async () => {
    const { writes } = recordedPipeline({
      rules: {
        async beforeWrite({ tx }) {
          await tx.query(`INSERT INTO id_sequences (resource, last_value) VALUES ('pipeline_marks', 1)`);
        },
      },
    });
    const created = await recordedPipeline().writes.create({ carrier_id: 1, code: 'pipe-3' });
    const key = String(created.courier_id);
    const error = await refusal(writes.update(key, { code: 'pipe-3b' }, Number(created.version) + 1));

    expect(error.status).toBe(409);
    expect(error.details).toMatchObject({ code: 'STALE_VERSION', message_key: 'catalogue.stale_version' });
    const marks = await stack.db.query(`SELECT 1 FROM id_sequences WHERE resource = 'pipeline_marks'`);
    expect(marks.rows).toEqual([]);
    expect(await couriersCoded('pipe-3b')).toEqual([]);
    expect(await auditRowsOf([key])).toEqual(['create']);
  });

  it('checks a change the gateway makes itself (an upload) as any edit: schema, rules, audit', async () => {
    const { stages, writes } = recordedPipeline();
    const created = await writes.create({ carrier_id: 1, code: 'pipe-4' });
    const key = String(created.courier_id);
    stages.length = 0;

    const changed = await writes.change(key, async (_tx, existing) => ({ ...existing.doc, code: 'pipe-4b' }));
    expect(stages).toEqual(['validate', 'rules']);
    expect(changed).toMatchObject({ code: expect.stringMatching(/^pipe-4b$/i), version: 2 });
    expect(await auditRowsOf([key])).toEqual(['create', 'update']);

    const refused = await refusal(writes.change(key, async (_tx, existing) => ({ ...existing.doc, code: 'x' })));
    expect(refused.status).toBe(422);
    expect(await auditRowsOf([key])).toEqual(['create', 'update']);
  });
});

describe('create and bulk import through the same pipeline', () => {
  const bad = [
    { carrier_id: 1, code: 'B', phone: '12-34' },
    { carrier_id: 999, code: 'SAME-ERR' },
    { code: 'SAME-ERR2' },
  ];

  // The import's message is the batch's; what each row shows is its field errors.
  it.each(bad)('give the same field errors for the same bad record: %o', async (record) => {
    const created = await stack.send(operator, { method: 'POST', path: 'webtool/couriers', body: record });
    const imported = await stack.send(operator, {
      method: 'POST',
      path: 'webtool/couriers',
      body: { opname: 'bulk_import', data: [record] },
    });

    expect(created.status).toBe(422);
    expect(imported.status).toBe(422);
    const rowErrors = imported.body.row_errors as { errors: unknown }[];
    expect(rowErrors).toHaveLength(1);
    expect(rowErrors[0].errors).toEqual(created.body.errors);
  });
});
