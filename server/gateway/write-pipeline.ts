import { applySettings, type Db } from '../db/adapter.ts';
import { SAVE_FAILED, type FieldErrors, type RowErrors } from '../../src/contract/errors.ts';
import type { RecordResponse } from '../../src/contract/responses.ts';
import type { CallerAccess } from './caller-access.ts';
import { badRequest, HttpError, notFound } from './http-error.ts';
import type { Doc } from './record-store.ts';
import { assertPartnerFields } from './field-partner-types.ts';
import {
  audit,
  diff,
  nextId,
  readRecord,
  recordRead,
  staleVersion,
  storeNew,
  storeRemoval,
  storeUpdate,
  type Actor,
  type StoredRecord,
} from './record-writes.ts';
import { propertyType, withDefaults, writableFields, type ResourceDefinition } from './resource-registry.ts';
import type { ResourceRules, RuleContext } from './resource-rules.ts';
import { ownedByCaller, scopeFor, visible } from './tenancy.ts';
import { fieldsHiddenByOptions, optionRequiredErrors } from '../../src/schema/feature-options.ts';

/**
 * The one way the gateway writes a record: prepare (writable fields, defaults, ownership) ->
 * validate (the schema) -> rules (the resource's hooks) -> write -> audit, the last four in one
 * transaction, so that a refusal at any stage leaves neither a record nor an audit row behind.
 * Create, update, delete, bulk import, uploads and the resources' opnames all go through it.
 */

export type RecordValidator = (
  resource: ResourceDefinition,
  doc: Doc,
  options: { partial: boolean },
) => { valid: boolean; data: Doc; errors: FieldErrors };

/** Checks the fields of a record action's form schema that a body holds (OpnameContext.validateForm). */
export type FormValidator = (formSchemaId: string, body: Doc) => { valid: boolean; data: Doc; errors: FieldErrors };

export interface WritePipelineDeps {
  db: Db;
  resources: Map<string, ResourceDefinition>;
  validate: RecordValidator;
  rules?: Record<string, ResourceRules>;
}

/** Who the audit trail names for a write. */
export function actorOf(access: CallerAccess): Actor {
  return { username: access.caller.username, partnerType: access.partnerType, partner: access.partner };
}

/**
 * Names the actor of the transaction's writes for the live updates' triggers (migration 045), which
 * publish every committed change of a record with who made it: transaction-local settings.
 */
export async function markActor(tx: Db, actor: Actor) {
  await applySettings(tx, actorSettings(actor));
}

/** markActor's settings, for a transaction that names its actor with its BEGIN (one round trip less). */
export const actorSettings = (actor: Actor) => ({
  'webtool.actor': actor.username,
  'webtool.actor_partner': `${actor.partnerType}:${actor.partner ?? ''}`,
});

export const refusedFields = (errors: FieldErrors) => new HttpError(422, SAVE_FAILED, { errors });

/** The field errors of a refusal that names fields (a 422 of the schema or of a rule), else undefined. */
function fieldErrorsOf(error: unknown): FieldErrors | undefined {
  if (!(error instanceof HttpError) || error.status !== 422) return undefined;
  const errors = error.details.errors;
  return errors && typeof errors === 'object' ? (errors as FieldErrors) : undefined;
}

/** The record if it exists and the caller may see it; otherwise 404, so ids cannot be probed. */
export async function visibleRecord(tx: Db, access: CallerAccess, resource: ResourceDefinition, key: string) {
  return shownOr404(access, resource, await readRecord(tx, resource, key));
}

function shownOr404(access: CallerAccess, resource: ResourceDefinition, existing: StoredRecord | undefined) {
  if (!existing || !visible(scopeFor(access, resource), existing.doc)) throw notFound();
  return existing;
}

/** A record as the gateway answers a write: the stored document and its new version. */
export type WrittenRecord = RecordResponse['data'];

export type RecordChange =
  | { action: 'create'; key: string; doc: Doc }
  | { action: 'update'; existing: StoredRecord; doc: Doc; basedOnVersion: number }
  | { action: 'delete'; existing: StoredRecord };

/**
 * The write and audit stages, in the caller's transaction: for routes that prepare, validate and
 * check their records themselves (roles), and the last stages of every pipeline run. With `commits` (only for
 * the transaction's opener, when nothing follows the write in it), a create's or update's statement goes with the
 * COMMIT (`Db.commitWith`).
 */
export async function commitChange(
  tx: Db,
  actor: Actor,
  resource: ResourceDefinition,
  change: RecordChange,
  commits = false,
): Promise<WrittenRecord> {
  switch (change.action) {
    case 'create':
      await storeNew(tx, resource, actor, change.key, change.doc, diff({}, change.doc), commits);
      return { ...change.doc, version: 1 };
    case 'update': {
      const { existing, doc } = change;
      const version = await storeUpdate(
        tx,
        resource,
        actor,
        existing,
        doc,
        change.basedOnVersion,
        diff(existing.doc, doc),
        commits,
      );
      return { ...doc, version };
    }
    case 'delete':
      await storeRemoval(tx, resource, change.existing);
      await audit(tx, actor, resource, change.existing.key, 'delete', diff(change.existing.doc, {}));
      return { ...change.existing.doc, version: change.existing.version };
  }
}

/** Checks a bulk import adds around the schema's, per row. */
export interface RowChecks {
  /** Errors found in the raw row (formula cells): on the same field they win over the schema's. */
  problems(row: Doc): FieldErrors;
  /** Checks of the valid, normalised row against the rows before it (repeats in the file). */
  afterValidation(data: Doc, line: number): FieldErrors;
}

/** The pipeline bound to one caller and one resource: what handlers, opnames and uploads write with. */
export interface RecordWrites {
  /** A new record (201 of POST); ownership is checked before the transaction opens. */
  create(input: Doc): Promise<WrittenRecord>;
  /**
   * The same create in a transaction the caller opened, with every stage (rules, audit): for a handler
   * that writes records of two resources all or none (a location proposal made a service point).
   */
  createWithin(tx: Db, input: Doc): Promise<WrittenRecord>;
  /** PATCH: the client's writable fields over the stored record, if it is still at `basedOnVersion`. */
  update(key: string, input: Doc, basedOnVersion: number): Promise<WrittenRecord>;
  /** DELETE; without `basedOnVersion` whatever version is stored. `input`: the request's body, for the rules. */
  remove(key: string, basedOnVersion?: number, input?: Doc): Promise<void>;
  /**
   * A change the gateway makes itself (an uploaded logo) or of a part of the record (an opname):
   * `produce` runs in the transaction and returns the new document, or undefined when nothing is to
   * change. With `basedOnVersion` (the version the client showed), 409 if the record moved on since.
   */
  change(
    key: string,
    produce: (tx: Db, existing: StoredRecord) => Promise<Doc | undefined>,
    basedOnVersion?: number,
  ): Promise<WrittenRecord>;
  /**
   * Several records changed together (a bulk action on a list: the tickets' quick actions): each
   * `produce` as in `change`, every record through the stages and audited, all in one transaction, so
   * that one refusal (a rule, a record the caller cannot see, a stale `basedOnVersion`) writes nothing.
   */
  changeAll(
    changes: readonly {
      key: string;
      produce: (tx: Db, existing: StoredRecord) => Promise<Doc | undefined>;
      basedOnVersion?: number;
    }[],
  ): Promise<WrittenRecord[]>;
  /**
   * All rows or none: every row goes through the stages, the later rows still checked once one
   * failed, and a 422 with `row_errors` (line = index + 2) lists the refused ones.
   */
  importRows(rows: Doc[], checks: RowChecks): Promise<number>;
}

export function createWritePipeline(deps: WritePipelineDeps) {
  const { db } = deps;

  return function writesOf(access: CallerAccess, resource: ResourceDefinition): RecordWrites {
    const rules = deps.rules?.[resource.endpoint] ?? {};
    const actor = actorOf(access);
    const scope = scopeFor(access, resource);
    const idIsNumeric = propertyType(resource, resource.id) === 'integer';
    /** The pipeline's transactions: every one names its actor with its BEGIN (actorSettings). */
    const transaction = <T>(work: (tx: Db) => Promise<T>) => db.transaction(work, { settings: actorSettings(actor) });
    /**
     * A transaction on one record the caller may see (else 404): its read goes with the BEGIN, so that a save
     * costs three round trips rather than four (issue 32); read on its own where the database cannot.
     */
    const onRecord = <T>(key: string, work: (tx: Db, existing: StoredRecord) => Promise<T>) =>
      db.transaction(
        async (tx, opened) => {
          const existing = opened
            ? (opened[0] as unknown as StoredRecord | undefined)
            : await readRecord(tx, resource, key);
          return work(tx, shownOr404(access, resource, existing));
        },
        { settings: actorSettings(actor), opening: recordRead(resource, key) },
      );

    // A field whose input the caller's feature options hide is not theirs to set (spec 01 §6): a crafted
    // request leaves it as stored, or at its default on a new record.
    const hiddenFields = fieldsHiddenByOptions(access.permissions, resource).map((field) => field.source);
    const settable = (input: Doc) => {
      const fields = writableFields(resource, input);
      for (const field of hiddenFields) delete fields[field];
      return fields;
    };
    // A body naming another owner is refused even where the owner field is the gateway's to set
    // (read-only, derived): it would be dropped, but the caller asked for what it may not have.
    const namedOwner = (input: Doc) => {
      const named = typeof scope === 'object' ? input[scope.field] : undefined;
      if (named !== undefined && named !== null && named !== '') ownedByCaller(scope, resource, input);
    };
    const prepareNew = (input: Doc) => {
      namedOwner(input);
      return ownedByCaller(scope, resource, withDefaults(resource, settable(input)));
    };
    const prepareChange = (existing: StoredRecord, input: Doc) => {
      namedOwner(input);
      return ownedByCaller(scope, resource, {
        ...existing.doc,
        ...settable(input),
        [resource.id]: existing.doc[resource.id],
      });
    };

    /** The validate and rules stages of one prepared record: the document to write, or a refusal. */
    const ruleContext = (tx: Db, input?: Doc): RuleContext => ({
      tx,
      access,
      resource,
      resources: deps.resources,
      input,
    });

    async function checked(
      tx: Db,
      prepared: Doc,
      existing: StoredRecord | undefined,
      row?: { checks: RowChecks; line: number },
      input?: Doc,
    ): Promise<Doc> {
      // A new record's numeric id is the gateway's: a placeholder satisfies the schema until then.
      const placeholder = !existing && idIsNumeric ? { [resource.id]: 1 } : {};
      const errors: FieldErrors = row?.checks.problems(prepared) ?? {};
      const result = deps.validate(resource, { ...prepared, ...placeholder }, { partial: false });
      for (const [field, error] of Object.entries(result.errors)) errors[field] ??= error;
      // What the form requires by the caller's options, the gateway requires of the form's create and edit.
      if (input && !row) {
        const required = optionRequiredErrors(access.permissions, resource, result.data, existing?.doc);
        for (const [field, error] of Object.entries(required)) errors[field] ??= error;
      }
      if (!Object.keys(errors).length && row) Object.assign(errors, row.checks.afterValidation(result.data, row.line));
      if (Object.keys(errors).length) throw refusedFields(errors);
      // A field the schema gives to other partner types is not the caller's to change (issue 25.4).
      assertPartnerFields(access, resource, result.data, existing?.doc);

      return (await rules.beforeWrite?.(ruleContext(tx, input), result.data, existing)) ?? result.data;
    }

    /**
     * The write and audit stages of a checked document, then the rules' follow-ups of the write. `last`: the
     * pipeline opened the transaction and nothing of its own follows; the write then goes with the COMMIT unless
     * the rules have follow-ups (`Db.commitWith`).
     */
    async function written(tx: Db, doc: Doc, existing?: StoredRecord, basedOnVersion?: number, last = false) {
      let record: WrittenRecord;
      const commits = last && !rules.afterWrite;
      if (existing) {
        record = await commitChange(
          tx,
          actor,
          resource,
          { action: 'update', existing, doc, basedOnVersion: basedOnVersion ?? existing.version },
          commits,
        );
      } else {
        const withId = idIsNumeric ? { ...doc, [resource.id]: await nextId(tx, resource) } : doc;
        record = await commitChange(
          tx,
          actor,
          resource,
          { action: 'create', key: recordKeyOf(resource, withId), doc: withId },
          commits,
        );
      }
      await rules.afterWrite?.(ruleContext(tx), record, existing);
      return record;
    }

    return {
      async create(input) {
        const prepared = prepareNew(input);
        return transaction(async (tx) =>
          written(tx, await checked(tx, prepared, undefined, undefined, input), undefined, undefined, true),
        );
      },

      async createWithin(tx, input) {
        await markActor(tx, actor);
        return written(tx, await checked(tx, prepareNew(input), undefined, undefined, input));
      },

      async update(key, input, basedOnVersion) {
        return onRecord(key, async (tx, existing) => {
          const doc = await checked(tx, prepareChange(existing, input), existing, undefined, input);
          return written(tx, doc, existing, basedOnVersion, true);
        });
      },

      async remove(key, basedOnVersion, input) {
        await onRecord(key, async (tx, existing) => {
          if (basedOnVersion !== undefined && basedOnVersion !== existing.version) throw staleVersion();
          await rules.beforeDelete?.(ruleContext(tx, input), existing);
          await commitChange(tx, actor, resource, { action: 'delete', existing });
        });
      },

      async change(key, produce, basedOnVersion) {
        return onRecord(key, async (tx, existing) => {
          const doc = await produce(tx, existing);
          if (doc === undefined) return { ...existing.doc, version: existing.version };
          return written(tx, await checked(tx, doc, existing), existing, basedOnVersion, true);
        });
      },

      async changeAll(changes) {
        return transaction(async (tx) => {
          const records: WrittenRecord[] = [];
          for (const { key, produce, basedOnVersion } of changes) {
            const existing = await visibleRecord(tx, access, resource, key);
            if (basedOnVersion !== undefined && basedOnVersion !== existing.version) throw staleVersion();
            const doc = await produce(tx, existing);
            records.push(
              doc === undefined
                ? { ...existing.doc, version: existing.version }
                : await written(tx, await checked(tx, doc, existing), existing, basedOnVersion),
            );
          }
          return records;
        });
      },

      async importRows(rows, checks) {
        // Tenancy first, for the whole batch: a row for another owner refuses the request (403).
        const prepared = rows.map(prepareNew);
        return transaction(async (tx) => {
          const rowErrors: RowErrors[] = [];
          let imported = 0;
          for (const [index, row] of prepared.entries()) {
            const line = index + 2;
            try {
              const doc = await checked(tx, row, undefined, { checks, line });
              // Once a row failed nothing will be kept, but the later rows are still checked.
              if (rowErrors.length) continue;
              await written(tx, doc);
              imported += 1;
            } catch (error) {
              const errors = fieldErrorsOf(error);
              if (!errors) throw error;
              rowErrors.push({ index, line, errors });
            }
          }
          if (rowErrors.length) throw new HttpError(422, SAVE_FAILED, { row_errors: rowErrors });
          return imported;
        });
      },
    };
  };
}

/** A record's key from its id field, as the client sent it or the gateway gave it. */
export function recordKeyOf(resource: ResourceDefinition, source: Record<string, unknown>) {
  const raw = source[resource.id];
  if (raw === undefined || raw === null || raw === '')
    throw badRequest('gateway.param_required', { name: resource.id });
  if (typeof raw === 'object') throw badRequest('gateway.single_value', { name: resource.id });
  return String(raw);
}

export type WritesOf = ReturnType<typeof createWritePipeline>;
