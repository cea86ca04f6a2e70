import type { IncomingHttpHeaders } from 'node:http';
import type { Db } from '../db/adapter.ts';
import type { CallerAccess } from './caller-access.ts';
import type { Doc, ListCondition, ListQuery } from './record-store.ts';
import type { StoredRecord } from './record-writes.ts';
import type { ResourceDefinition } from './resource-registry.ts';
import type { FieldErrors } from '../../src/contract/errors.ts';
import type { RecordWrites } from './write-pipeline.ts';
import type { JobQueue } from './background-jobs.ts';

export interface RuleContext {
  tx: Db;
  access: CallerAccess;
  resource: ResourceDefinition;
  resources: Map<string, ResourceDefinition>;
  /**
   * The body as the client sent it (create, edit, delete), read-only fields included: for a rule
   * about a field the client may not set, which the pipeline would otherwise drop without a word.
   */
  input?: Doc;
}

/** What an opname, query, upload or removal handler gets. */
export interface OpnameContext {
  db: Db;
  access: CallerAccess;
  resource: ResourceDefinition;
  resources: Map<string, ResourceDefinition>;
  /** The schema check of the POST path (no partial records). */
  validate(doc: Doc): { valid: boolean; data: Doc; errors: FieldErrors };
  /**
   * The check of a record action's small form (`x-record-actions[].form`): the body's fields that the
   * form schema has, validated by it; the rest of the body (id, version, opname) is left out of `data`.
   */
  validateForm(formSchemaId: string, body: Doc): { valid: boolean; data: Doc; errors: FieldErrors };
  /** The resource's own rules. */
  rules: ResourceRules;
  /** The write pipeline for this caller and resource: a handler that writes records goes through it. */
  writes: RecordWrites;
  /**
   * The pipeline for this caller and any resource, inside a transaction the handler opened with `db`: records
   * of several resources written together, each through its own stages, committed or refused as one (a
   * stopped sub order, the sub order for its remaining quantity and the units it produced).
   */
  writesIn(tx: Db, resource: ResourceDefinition): RecordWrites;
  /** The write pipeline for this caller and another resource, by its endpoint (a proposal's service point). */
  writesFor(endpoint: string): RecordWrites;
  /** Work started by one request and polled by later ones, possibly through another gateway process. */
  jobs: JobQueue;
}

/**
 * Business rules a schema cannot say (uniqueness across records, what blocks a deletion...), run
 * by the write pipeline after the schema's validation and before the write. Each throws an
 * HttpError with the catalogue message; nothing is written nor audited when one throws.
 */
export interface ResourceRules<T extends object = Doc> {
  beforeWrite?(ctx: RuleContext, doc: T, existing: StoredRecord<T> | undefined): Promise<T | void>;
  beforeDelete?(ctx: RuleContext, existing: StoredRecord<T>): Promise<void>;
  /**
   * After the write, in its transaction: keeps other records in step with the written one (a PIN
   * pad's unit names the pad), now that a new record has its id. A throw undoes the whole write.
   */
  afterWrite?(ctx: RuleContext, written: T & { version: number }, existing: StoredRecord<T> | undefined): Promise<void>;
  /**
   * A list's extra conditions, from its `x-resource.queryFilters` (`query.queryFilters`, typed): a
   * ticket's date range. A refusal of their values is a 400.
   */
  listConditions?(query: ListQuery): ListCondition[];
  /** `POST webtool/<endpoint>` with `{ opname, ... }`: the handler's result is the 200 answer. */
  opnames?: Record<string, (ctx: OpnameContext, body: Doc) => Promise<unknown>>;
  /**
   * `PATCH webtool/<endpoint>` with `{ opname, ... }`, a change of one part of a record (a carrier's
   * expiry settings): edit access is checked before; the handler's result is the 200 answer.
   */
  patchOpnames?: Record<string, (ctx: OpnameContext, body: Doc) => Promise<unknown>>;
  /**
   * `GET webtool/<endpoint>?opname=...`: read-only calls; the handler's result is the 200 answer. The
   * request headers let an answer follow the caller's language (Accept-Language).
   */
  queries?: Record<
    string,
    (ctx: OpnameContext, query: Record<string, string>, headers: IncomingHttpHeaders) => Promise<unknown>
  >;
  /** `PUT webtool/<endpoint>` (uploads): write access is checked before; the result is the 200 answer. */
  put?(ctx: OpnameContext, body: Doc): Promise<unknown>;
  /**
   * `GET webtool/<endpoint>` without an opname, for a resource whose list the record store cannot
   * answer alone (end users, seen through their pieces and searched by `filter_type`/`filter_value`):
   * read access is checked before; the result (`{ success, data, total }`) is the 200 answer.
   */
  list?(ctx: OpnameContext, query: Record<string, string>): Promise<unknown>;
  /**
   * `DELETE webtool/<endpoint>` without an opname, for a resource whose deletion is not at once (an
   * end user is marked, then deleted once their shipments are done): delete access is checked
   * before; the result is the 200 answer.
   */
  remove?(ctx: OpnameContext, body: Doc): Promise<unknown>;
  /** `DELETE webtool/<endpoint>` with `{ opname, ... }` (e.g. a carrier's logo): the result is the 200 answer. */
  removals?: Record<string, (ctx: OpnameContext, body: Doc) => Promise<unknown>>;
}

/**
 * A resource's rules written over its generated record type (`src/types/generated/<entity>.ts`). The
 * gateway hands `beforeWrite` only a record that passed the resource's schema, and `beforeDelete` a
 * stored one, written the same way, so the record has that type.
 */
export function recordRules<T extends object>(rules: ResourceRules<T>): ResourceRules {
  return rules as unknown as ResourceRules;
}
