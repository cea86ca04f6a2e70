import type { FeatureIds } from './features.ts';
import type { ActionRules } from './resource-actions.ts';
import type { badgeColors } from './ajv.ts';
import type { AccessLevel } from './permissions.ts';

/** The column types of the generic table (spec 02 §2). */
export type ColumnType =
  | 'text'
  | 'text_with_badge'
  | 'expandable'
  | 'link'
  | 'linkonly'
  | 'array_with_badges'
  | 'select'
  | 'select2'
  | 'switch'
  | 'images';

export interface FieldModel {
  source: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  required: boolean;
  readOnly: boolean;
  format?: string;
  /** Allowed values (enum, or the enum of array items). */
  values?: (string | number)[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  defaultValue?: unknown;
  column: { type: ColumnType; hide: boolean; ignorexport: boolean; index: number };
  filter?: { kind: string; alwaysOn: boolean };
  input: { kind?: string; tab?: string; multiline?: boolean; step?: number; [hint: string]: unknown };
  lookup?: { resource?: string; source?: string; label?: string; value?: string };
  /** Locale key under `choices` naming each value. */
  choices?: string;
  /** `x-localised-by`: the sibling object holding this text per app language (`{ "fr-FR": "..." }`). */
  localisedBy?: string;
  /** The languages an object keyed by language takes (its `propertyNames.enum`). */
  languages?: string[];
  /** `x-badge`: the value shown as a coloured badge, by rule first, then by value. */
  badge?: BadgeModel;
}

export type BadgeColor = (typeof badgeColors)[number];

/** A rule matches a record whose named fields all equal the given values. */
export type RecordCondition = Record<string, unknown>;

export interface BadgeModel {
  colors: Record<string, BadgeColor>;
  rules: { when: RecordCondition; label: string; color: BadgeColor }[];
}

/** `x-children`: records of another schema shown in a tab of this one's edit page. */
export interface ChildModel {
  /** The child's schema id; its `x-resource` gives the endpoint and the rules. */
  schema: string;
  tab: string;
  /** The child's field holding the parent's id. */
  foreignKey: string;
  /** The child's fields shown as columns; all its listed columns when left out. */
  columns?: string[];
}

/** `x-record-actions`: a button of the edit page that calls the gateway for the record. */
export interface RecordActionModel {
  name: string;
  /** Locale key of the button. */
  label: string;
  /** Locale key of the success message; `form.action_done` when left out. */
  done?: string;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  opname?: string;
  /** Record fields sent with the call; the id field when left out. */
  send?: string[];
  /** Constant values sent with the call, e.g. `{ "action_type": 2 }`. */
  body?: Record<string, unknown>;
  /** Shown only for records matching this condition. */
  when?: RecordCondition;
  /** Locale key of the question asked before the call. */
  confirm?: string;
  /** Who sees the button; by default whoever may edit the record. */
  levels?: AccessLevel[];
  partnerTypes?: string[] | 'All';
}

export interface ResourceModel {
  schemaId: string;
  name: string;
  endpoint: string;
  id: string;
  features: FeatureIds;
  partnerTypes: string[] | 'All';
  /** `x-resource.actions`: who may create, edit, delete and import (src/schema/resource-actions.ts). */
  actions: ActionRules;
  pageSize: number;
  sort: { field: string; order: 'ASC' | 'DESC' };
  representation: string;
  search: string[];
  tabs: string[];
  /** The gateway takes a bulk_import opname for this resource. */
  bulkImport: boolean;
  /**
   * `x-resource.bulkImport: { toggle }`: a boolean field the import dialog offers to set on every row
   * (sent as `is_toggle_enabled`), e.g. importing test service points.
   */
  importToggle?: string;
  /** In column order. */
  fields: FieldModel[];
  children: ChildModel[];
  recordActions: RecordActionModel[];
}

type Schema = Record<string, unknown>;
export type SchemaLookup = (ref: string) => Schema | undefined;

/** A property with its `$ref` (into common or its own `$defs`) merged under its own keywords. */
function resolved(property: Schema, lookup: SchemaLookup): Schema {
  const ref = property.$ref;
  if (typeof ref !== 'string') return property;
  const target = lookup(ref);
  return target ? { ...resolved(target, lookup), ...property } : property;
}

function fieldModel(
  source: string,
  raw: Schema,
  required: boolean,
  position: number,
  lookup: SchemaLookup,
): FieldModel {
  const property = resolved(raw, lookup);
  const rawType = Array.isArray(property.type) ? property.type.find((t) => t !== 'null') : property.type;
  const type = (rawType ?? 'string') as FieldModel['type'];
  const items = property.items ? resolved(property.items as Schema, lookup) : undefined;
  const column = (property['x-column'] ?? {}) as Partial<FieldModel['column']>;
  const lookupHint = property['x-lookup'] as FieldModel['lookup'];
  // A boolean is a switch (an on/off state) only when the schema says so: 'terminated' is a fact.
  const defaultColumnType: ColumnType = type === 'array' ? 'array_with_badges' : property.enum ? 'select' : 'text';
  return {
    source,
    type,
    required,
    readOnly: property.readOnly === true,
    format: typeof property.format === 'string' ? property.format : undefined,
    values: (property.enum ?? items?.enum) as FieldModel['values'],
    minimum: property.minimum as number | undefined,
    maximum: property.maximum as number | undefined,
    maxLength: property.maxLength as number | undefined,
    defaultValue: property.default,
    column: {
      type: column.type ?? (lookupHint?.resource ? 'select2' : defaultColumnType),
      hide: column.hide ?? false,
      ignorexport: column.ignorexport ?? false,
      index: column.index ?? 1000 + position,
    },
    filter: property['x-filter'] ? { kind: 'text', alwaysOn: false, ...(property['x-filter'] as object) } : undefined,
    input: (property['x-input'] ?? {}) as FieldModel['input'],
    lookup: lookupHint,
    choices: property['x-choices'] as string | undefined,
    localisedBy: property['x-localised-by'] as string | undefined,
    languages: (property.propertyNames as Schema | undefined)?.enum as string[] | undefined,
    badge: badgeModel(property['x-badge'] as Partial<BadgeModel> | undefined),
  };
}

function badgeModel(hint: Partial<BadgeModel> | undefined): BadgeModel | undefined {
  return hint && { colors: hint.colors ?? {}, rules: hint.rules ?? [] };
}

/** Whether every field the condition names holds the given value. */
export function matchesCondition(record: Record<string, unknown>, condition: RecordCondition): boolean {
  return Object.entries(condition).every(([field, value]) => record[field] === value);
}

/** Everything the generic list, form, export and import need to know about one entity. */
export function resourceModel(schema: Schema, lookup: SchemaLookup): ResourceModel {
  const meta = schema['x-resource'] as Partial<Omit<ResourceModel, 'bulkImport'>> & {
    name: string;
    endpoint: string;
    id: string;
    bulkImport?: boolean | { toggle?: string };
  };
  if (!meta) throw new Error(`Schema ${String(schema.$id)} has no x-resource`);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const fields = Object.entries(properties)
    .map(([source, property], position) => fieldModel(source, property, required.has(source), position, lookup))
    .sort((a, b) => a.column.index - b.column.index);
  return {
    schemaId: String(schema.$id),
    name: meta.name,
    endpoint: meta.endpoint,
    id: meta.id,
    features: meta.features ?? {},
    partnerTypes: meta.partnerTypes ?? 'All',
    actions: meta.actions ?? {},
    pageSize: meta.pageSize ?? 20,
    sort: meta.sort ?? { field: meta.id, order: 'ASC' },
    representation: meta.representation ?? meta.id,
    search: meta.search ?? [],
    tabs: meta.tabs ?? [],
    bulkImport: meta.bulkImport === true || typeof meta.bulkImport === 'object',
    importToggle: typeof meta.bulkImport === 'object' ? meta.bulkImport.toggle : undefined,
    fields,
    children: (schema['x-children'] as ChildModel[] | undefined) ?? [],
    recordActions: (schema['x-record-actions'] as RecordActionModel[] | undefined) ?? [],
  };
}
