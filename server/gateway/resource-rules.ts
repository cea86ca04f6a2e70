import type { Db } from '../db/adapter.ts';
import type { CallerAccess } from './caller-access.ts';
import type { Doc } from './record-store.ts';
import type { StoredRecord } from './record-writes.ts';
import type { ResourceDefinition } from './resource-registry.ts';

export interface RuleContext {
  tx: Db;
  access: CallerAccess;
  resource: ResourceDefinition;
  resources: Map<string, ResourceDefinition>;
}

/**
 * Business rules a schema cannot say (uniqueness across records, what blocks a deletion...).
 * Each throws an HttpError with the catalogue message; nothing is written when one throws.
 */
export interface ResourceRules {
  beforeWrite?(ctx: RuleContext, doc: Doc, existing: StoredRecord | undefined): Promise<Doc | void>;
  beforeDelete?(ctx: RuleContext, existing: StoredRecord): Promise<void>;
}
