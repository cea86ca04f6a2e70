import { features, type FeatureIds, type FeatureName } from './features.ts';
import type { ActionRules } from './resource-actions.ts';
import type { badgeColors } from './ajv.ts';
import type { AccessLevel } from './permissions.ts';

/**
 * The schema reader: the only code that follows `$ref` and reads `x-resource` and the property
 * hints. The browser engine, the gateway, the bulk import and the benchmarks all take the model it
 * builds. Pure (no React, no DOM, no ajv), so `server/` uses it too. ajv checks each hint's shape
 * against its meta-schema (src/schema/ajv.ts) before a schema gets here, which is what makes the
 * typed reads below safe.
 */

/** The column types of the generic table (spec 02 §2). */
export const columnTypes = [
  'text',
  'text_with_badge',
  'expandable',
  'link',
  'linkonly',
  'array_with_badges',
  'select',
  'select2',
  'switch',
  'images',
] as const;
export type ColumnType = (typeof columnTypes)[number];

export type Schema = Record<string, unknown>;

/** A schema node and the `$id` its own relative references (`#/$defs/...`) are resolved against. */
export interface SchemaNode {
  schema: Schema;
  baseId: string;
}

/** Resolves one `$ref` met while walking a schema; `baseId` is the `$id` the reference is relative to. */
export type RefResolver = (ref: string, baseId: string) => SchemaNode | undefined;

/** `x-column`. */
export interface ColumnHint {
  type?: ColumnType;
  hide?: boolean;
  ignorexport?: boolean;
  index?: number;
  /** A count shown as `<cap>+` above the cap (a compartment fault count: 99+); exported in full. */
  cap?: number;
  /** On a `select2` column of an `x-lookup.resource`: the name links to the referenced record's page. */
  linked?: boolean;
}

/** `x-filter`. */
export interface FilterHint {
  kind?: string;
  alwaysOn?: boolean;
  /** Text compared in any case (a city). */
  ignoreCase?: boolean;
  /** Also filter by the first characters, at least this many (`<field>_prefix`, a piece id or barcode). */
  prefix?: number;
}

/** `x-input`. */
export interface InputHint {
  kind?: string;
  tab?: string;
  multiline?: boolean;
  step?: number;
  /** The caller's own partner only: its `type` or its `id` (a carrier creating a webtool user). */
  callerPartner?: 'type' | 'id';
  /** The `DELETE` opname that removes an uploaded file. */
  removeOpname?: string;
  /** A photo-gallery's largest file in bytes when not the service points' 5 MB (a proposal's pictures, 1 MB). */
  maxBytes?: number;
  /** A photo-gallery's message key for a file too large or one too many, when not the two default ones. */
  refusal?: string;
  /** Upper-case the value when this policy option of the feature is on. */
  uppercaseOption?: { feature: number; option: string };
  /** The input shows, and the gateway takes the field, only when this option of the resource's feature is on. */
  option?: FeatureOptionHint;
  /** The field is required when this option of the resource's feature is on (municipality required). */
  requiredOption?: FeatureOptionHint;
  /** The record action (its `name`) that changes the field: the form shows the value, not an input. */
  setBy?: string;
  /** The input shows only while each named field of the form holds one of the listed values. */
  when?: RecordCondition;
  /** The input is disabled until the named field of the form has a value (a deadline's time after its date). */
  enabledBy?: string;
  /**
   * The input shows only for users of these partner types (super admins pass), and the write pipeline refuses a
   * change of the field by anyone else, for every resource (server/gateway/field-partner-types.ts).
   */
  partnerTypes?: string[];
  /** The catalogue key of that refusal when not the generic `gateway.field_partner_type` (a ticket's warranty). */
  partnerRefusal?: string;
  /**
   * `x-display.form: false`: a list column only, never on the record page, which shows the same fact through another
   * field (a ticket's service point name beside the service point it names).
   */
  form?: false;
}

/**
 * `x-display`: a `readOnly` field shown but never edited, in a tab of the record page (`tab`), by a
 * display its resource registers (`kind`), for users with a feature option (`option`), or in the
 * list only (`form: false`). The model reads it where it reads `x-input` (`FieldModel.input`).
 */
export type DisplayHint = Pick<InputHint, 'kind' | 'tab' | 'option' | 'form'>;

/** A policy option of the resource's feature (spec 01 §6); `fallback` when no policy configures it. */
export interface FeatureOptionHint {
  option: string;
  fallback?: boolean;
}

/** `x-lookup`: exactly one of `source` or `resource`. */
export interface LookupHint {
  source?: string;
  resource?: string;
  value?: string;
  label?: string;
}

/** `x-import`. */
export interface ImportHint {
  unique?: boolean;
  /** Fields compared together with this one, e.g. latitude with longitude. */
  uniqueWith?: string[];
  /** The longest text a file's cell may give for the field, when the file names its value (a lookup). */
  maxLength?: number;
}

/**
 * `x-resource.sort`: a list's default order; `last`: records whose `field` holds one of `values`
 * (terminated ones) come after the others while the list is in that order.
 */
export interface ListSort {
  field: string;
  order: 'ASC' | 'DESC';
  last?: { field: string; values: (string | number | boolean)[] };
}

/** `x-resource.bulkUpdate`: `PATCH webtool/<endpoint>` with `{ opname, [ids]: [...], ...changes }`. */
export interface BulkUpdateHint {
  opname: string;
  ids: string;
}

/** `x-resource`, as written. */
export interface ResourceHint {
  name: string;
  endpoint: string;
  id: string;
  /** The feature by its name (src/schema/features.ts). */
  feature?: FeatureName;
  partnerTypes?: string[] | 'All';
  actions?: ActionRules;
  tenancy?: Record<string, string>;
  pageSize?: number;
  searchPageSize?: number;
  sort?: ListSort;
  representation?: string;
  /** `x-resource.lookupLists`: the lookup lists (`lists?type=`) whose items are this resource's records. */
  lookupLists?: string[];
  search?: string[];
  tabs?: string[];
  bulkImport?: boolean | { toggle?: string };
  /** Record fields sent with a delete under other names: `{ "partner_id": "hardware_owner_id" }`. */
  deleteSends?: Record<string, string>;
  /** The endpoint users holding only the scout level of the feature call instead (`service_points/scouts`). */
  scoutEndpoint?: string;
  /** The PATCH opname that changes many records in one call, and the request field naming their ids. */
  bulkUpdate?: BulkUpdateHint;
  /** The fields a scout-level user fills in and changes; the form shows them only. */
  scoutFields?: string[];
  /** Tab -> the resource whose records it shows: only users who may list that resource see the tab. */
  tabReads?: Record<string, string>;
  /** Array field -> partner type -> the item field naming the partner each item belongs to. */
  partnerItems?: Record<string, Record<string, string>>;
  /** Properties that are list query parameters only (a date range), never columns, inputs nor stored fields. */
  queryFilters?: string[];
  /** The filter values a list opens with when the user has none saved (production orders: in production). */
  defaultFilter?: Record<string, unknown>;
}

export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

export interface FieldModel {
  source: string;
  /** The property's place in the schema: forms lay inputs out in this order, lists by `column.index`. */
  position?: number;
  type: FieldType;
  /** The type of an array's items. */
  itemType?: FieldType;
  required: boolean;
  readOnly: boolean;
  format?: string;
  /** Allowed values (enum, or the enum of array items). */
  values?: (string | number)[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  defaultValue?: unknown;
  column: { type: ColumnType; hide: boolean; ignorexport: boolean; index: number; cap?: number; linked?: boolean };
  filter?: { kind: string; alwaysOn: boolean; ignoreCase: boolean; prefix?: number };
  input: InputHint;
  lookup?: LookupHint;
  /** Locale key under `choices` naming each value. */
  choices?: string;
  /** `x-localised-by`: the sibling object holding this text per app language (`{ "fr-FR": "..." }`). */
  localisedBy?: string;
  /** The languages an object keyed by language takes (its `propertyNames.enum`). */
  languages?: string[];
  /** `x-import`: values that must not repeat within one import. */
  importHint?: ImportHint;
  /** `x-badge`: the value shown as a coloured badge, by rule first, then by value. */
  badge?: BadgeModel;
}

export type BadgeColor = (typeof badgeColors)[number];

/** `when`: a record matches when each named field holds one of the listed values, `{ "status": [2] }`. */
export type RecordCondition = Readonly<Record<string, readonly unknown[]>>;

export interface BadgeModel {
  colors: Record<string, BadgeColor>;
  rules: { when: RecordCondition; label: string; color: BadgeColor }[];
  /** Extra badges beside the value's, one per matching entry (a test service point's 'Test'). */
  marks: { when: RecordCondition; label: string; color?: BadgeColor }[];
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
  /** Each row also links to the child's own page (its record actions: a sub order's release or stop). */
  open?: boolean;
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
  /**
   * The path under `webtool/` the call goes to when it is another resource's (a new alert on a hardware
   * unit: `POST webtool/alerts`); the record's own endpoint when left out.
   */
  endpoint?: string;
  /** Record fields sent with the call; the id field when left out. */
  send?: string[];
  /** Constant values sent with the call, e.g. `{ "action_type": 2 }`. */
  body?: Record<string, unknown>;
  /** Shown only for records matching this condition. */
  when?: RecordCondition;
  /** Locale key of the question asked before the call. */
  confirm?: string;
  /**
   * An action that cannot be undone (a termination): the page head draws it apart, in the error colour,
   * last of its menu on a narrow screen, and always asks first (`confirm`, or a generic question).
   */
  destructive?: boolean;
  /**
   * The `$id` of a schema without `x-resource` whose fields the user fills in a dialog before the
   * call (prefilled from the record's fields of the same names); the values are sent with the call.
   */
  form?: string;
  /** Shown only when this option of the resource's feature is on (the test service point dialog). */
  option?: FeatureOptionHint;
  /** Who sees the button; by default whoever may edit the record. */
  levels?: AccessLevel[];
  partnerTypes?: string[] | 'All';
}

/** The fields of a schema as inputs and checks: a resource's, or a record action's small form. */
export interface FormModel {
  schemaId: string;
  /** The required fields, in the schema's `required` order. */
  required: string[];
  /** In column order. */
  fields: FieldModel[];
}

export interface ResourceModel extends FormModel {
  name: string;
  endpoint: string;
  id: string;
  features: FeatureIds;
  partnerTypes: string[] | 'All';
  /** `x-resource.actions`: who may create, edit, delete and import (src/schema/resource-actions.ts). */
  actions: ActionRules;
  /** `x-resource.tenancy`: partner type -> the field naming a record's owner, or '*' for all. */
  tenancy: Record<string, string>;
  pageSize: number;
  /** Rows a search for a record to pick fetches (spec 02 §9: 20, service points 15, hardware 10). */
  searchPageSize: number;
  sort: ListSort;
  representation: string;
  /** `x-resource.lookupLists`: the lookup lists (`lists?type=`) whose items are this resource's records. */
  lookupLists: string[];
  search: string[];
  tabs: string[];
  /** The gateway takes a bulk_import opname for this resource. */
  bulkImport: boolean;
  /**
   * `x-resource.bulkImport: { toggle }`: a boolean field the import dialog offers to set on every row
   * (sent as `is_toggle_enabled`), e.g. importing test service points.
   */
  importToggle?: string;
  /** `x-resource.deleteSends`: request field -> record field, sent with the id on a delete. */
  deleteSends: Record<string, string>;
  /** `x-resource.scoutEndpoint`: the path of the same records for users with only the scout level. */
  scoutEndpoint?: string;
  /** `x-resource.bulkUpdate`: the one call that changes many records (the dataProvider's updateMany). */
  bulkUpdate?: BulkUpdateHint;
  /** `x-resource.scoutFields`: what a scout-level user may set; empty when the level has no form of its own. */
  scoutFields: string[];
  /** `x-resource.defaultFilter`: the filter values the list opens with, when none are saved. */
  defaultFilter?: Record<string, unknown>;
  /** `x-resource.tabReads`: tab -> the resource a user must be able to list to see it (and its calls). */
  tabReads: Record<string, string>;
  /**
   * `x-resource.partnerItems`: array field -> partner type -> item field; a partner reads only its own items
   * (server/gateway/tenancy.ts `readableDoc`).
   */
  partnerItems: Record<string, Record<string, string>>;
  /**
   * `x-resource.queryFilters`: list filters that are query parameters, not record fields (a ticket's date
   * range); the list offers them as filters, the resource's gateway rules turn them into conditions.
   */
  queryFilters: FieldModel[];
  children: ChildModel[];
  recordActions: RecordActionModel[];
  /** `x-read-only`: the states in which a record can no longer change, each with its reason. */
  readOnlyWhen: ReadOnlyRule[];
}

/** `x-read-only`: a record matching `when` opens read-only, with `reason` (a locale key) said above it. */
export interface ReadOnlyRule {
  when: RecordCondition;
  reason: string;
}

/** The rule that makes the record read-only, if one does (the first that matches). */
export function readOnlyRuleOf(model: Pick<ResourceModel, 'readOnlyWhen'>, record: Record<string, unknown>) {
  return model.readOnlyWhen.find((rule) => matchesCondition(record, rule.when));
}

const MAX_REF_HOPS = 32;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON pointer such as `/$defs/countryCode`, URI-encoded as a fragment may be. */
function followPointer(root: Schema, pointer: string): Schema | undefined {
  if (pointer !== '' && !pointer.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const token of pointer.split('/').slice(1)) {
    const key = decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isSchema(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return isSchema(node) ? node : undefined;
}

/**
 * The one `$ref` resolver, over the schemas by `$id`: `#/$defs/x` within the referring schema,
 * `common#/$defs/x` (or any `<id>#<pointer>`) across files, and a bare `<id>`.
 */
export function createRefResolver(schemasById: ReadonlyMap<string, Schema>): RefResolver {
  return (ref, baseId) => {
    const hash = ref.indexOf('#');
    const targetId = hash === -1 ? ref : ref.slice(0, hash) || baseId;
    const root = schemasById.get(targetId);
    const target = root && followPointer(root, hash === -1 ? '' : ref.slice(hash + 1));
    return target && { schema: target, baseId: targetId };
  };
}

/**
 * A schema node with its `$ref` chain merged in, nearest keywords winning: a property's own
 * `readOnly` over the `default` of the common definition it points at, which itself may point at
 * another. The result's `baseId` is the one its subschemas (`items`, `properties`) are relative to.
 */
export function resolveNode(schema: unknown, baseId: string, resolveRef: RefResolver): SchemaNode | undefined {
  if (!isSchema(schema)) return undefined;
  const chain: SchemaNode[] = [{ schema, baseId }];
  let current: SchemaNode | undefined = chain[0];
  // A reference cycle is a broken schema; bounded so that it cannot hang a form or the gateway.
  for (let hops = 0; typeof current.schema.$ref === 'string' && hops < MAX_REF_HOPS; hops += 1) {
    const next = resolveRef(current.schema.$ref, current.baseId);
    if (!next) break;
    chain.push(next);
    current = next;
  }
  if (chain.length === 1) return chain[0];
  const merged: Schema = {};
  for (const node of chain.reverse()) Object.assign(merged, node.schema);
  delete merged.$ref;
  return { schema: merged, baseId: current.baseId };
}

function typeOf(schema: Schema | undefined): FieldType | undefined {
  const type = Array.isArray(schema?.type) ? schema.type.find((t) => t !== 'null') : schema?.type;
  return typeof type === 'string' ? (type as FieldType) : undefined;
}

function fieldModel(source: string, node: SchemaNode, required: boolean, position: number, resolveRef: RefResolver) {
  const property = node.schema;
  const type = typeOf(property) ?? 'string';
  const items = resolveNode(property.items, node.baseId, resolveRef)?.schema;
  const column = (property['x-column'] ?? {}) as ColumnHint;
  const lookup = property['x-lookup'] as LookupHint | undefined;
  const filter = property['x-filter'] as FilterHint | undefined;
  const languages = isSchema(property.propertyNames) ? property.propertyNames.enum : undefined;
  // A boolean is a switch (an on/off state) only when the schema says so: 'terminated' is a fact.
  const defaultColumnType: ColumnType = type === 'array' ? 'array_with_badges' : property.enum ? 'select' : 'text';
  const field: FieldModel = {
    source,
    position,
    type,
    itemType: typeOf(items),
    required,
    readOnly: property.readOnly === true,
    format: typeof property.format === 'string' ? property.format : undefined,
    values: (property.enum ?? items?.enum) as FieldModel['values'],
    minimum: property.minimum as number | undefined,
    maximum: property.maximum as number | undefined,
    maxLength: property.maxLength as number | undefined,
    defaultValue: property.default,
    column: {
      type: column.type ?? (lookup?.resource ? 'select2' : defaultColumnType),
      hide: column.hide ?? false,
      ignorexport: column.ignorexport ?? false,
      index: column.index ?? 1000 + position,
      ...(column.cap !== undefined && { cap: column.cap }),
      ...(column.linked && { linked: true }),
    },
    filter: filter && { kind: 'text', alwaysOn: false, ignoreCase: false, ...filter },
    input: inputHintOf(property),
    lookup,
    // An array's items name their choices (PIN pad features): the field reads them by the same key.
    choices: (property['x-choices'] ?? items?.['x-choices']) as string | undefined,
    localisedBy: property['x-localised-by'] as string | undefined,
    languages: languages as string[] | undefined,
    importHint: property['x-import'] as ImportHint | undefined,
    badge: badgeModel(property['x-badge'] as Partial<BadgeModel> | undefined),
  };
  return field;
}

function badgeModel(hint: Partial<BadgeModel> | undefined): BadgeModel | undefined {
  return hint && { colors: hint.colors ?? {}, rules: hint.rules ?? [], marks: hint.marks ?? [] };
}

/** Whether every field the condition names holds one of its listed values. */
export function matchesCondition(record: Record<string, unknown>, condition: RecordCondition): boolean {
  return Object.entries(condition).every(([field, values]) => values.includes(record[field]));
}

/** The fields of a schema, with or without `x-resource`: a record action's form has none. */
export function formModel(schema: Schema, resolveRef: RefResolver): FormModel {
  const schemaId = String(schema.$id);
  const requiredList = (schema.required as string[] | undefined) ?? [];
  const required = new Set(requiredList);
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const fields = Object.entries(properties)
    .map(([source, raw], position) => {
      const node = resolveNode(raw, schemaId, resolveRef) ?? { schema: raw, baseId: schemaId };
      return fieldModel(source, node, required.has(source), position, resolveRef);
    })
    .sort((a, b) => a.column.index - b.column.index);
  return { schemaId, required: requiredList, fields };
}

/** The values a form holds of a record: its fields of the same names that the record has. */
export function formValuesOf(form: Pick<FormModel, 'fields'>, record: Record<string, unknown>) {
  return Object.fromEntries(
    form.fields
      .filter((field) => record[field.source] !== undefined)
      .map((field) => [field.source, record[field.source]]),
  );
}

/** Everything the generic list, form, export, import and the gateway need to know about one entity. */
export function resourceModel(schema: Schema, resolveRef: RefResolver): ResourceModel {
  const meta = schema['x-resource'] as ResourceHint | undefined;
  if (!meta) throw new Error(`Schema ${String(schema.$id)} has no x-resource`);
  const { schemaId, required, fields: allFields } = formModel(schema, resolveRef);
  const queryOnly = new Set(meta.queryFilters ?? []);
  const fields = allFields.filter((field) => !queryOnly.has(field.source));
  const { id } = meta;
  return {
    schemaId,
    name: meta.name,
    endpoint: meta.endpoint,
    id,
    features: meta.feature ? features[meta.feature] : {},
    partnerTypes: meta.partnerTypes ?? 'All',
    actions: meta.actions ?? {},
    tenancy: meta.tenancy ?? {},
    pageSize: meta.pageSize ?? 20,
    searchPageSize: meta.searchPageSize ?? 20,
    sort: meta.sort ?? { field: id, order: 'ASC' },
    representation: meta.representation ?? id,
    lookupLists: meta.lookupLists ?? [],
    search: meta.search ?? [],
    tabs: meta.tabs ?? [],
    bulkImport: meta.bulkImport === true || typeof meta.bulkImport === 'object',
    importToggle: typeof meta.bulkImport === 'object' ? meta.bulkImport.toggle : undefined,
    deleteSends: meta.deleteSends ?? {},
    ...(meta.scoutEndpoint && { scoutEndpoint: meta.scoutEndpoint }),
    ...(meta.bulkUpdate && { bulkUpdate: meta.bulkUpdate }),
    scoutFields: meta.scoutFields ?? [],
    ...(meta.defaultFilter && { defaultFilter: meta.defaultFilter }),
    tabReads: meta.tabReads ?? {},
    partnerItems: meta.partnerItems ?? {},
    queryFilters: allFields.filter((field) => queryOnly.has(field.source)),
    required,
    fields,
    children: (schema['x-children'] as ChildModel[] | undefined) ?? [],
    recordActions: (schema['x-record-actions'] as RecordActionModel[] | undefined) ?? [],
    readOnlyWhen: (schema['x-read-only'] as ReadOnlyRule[] | undefined) ?? [],
  };
}

/**
 * The `x-input` hint of a schema node, e.g. of the property an ajv error names, or its `x-display`
 * (a field has one or the other): where and how the form and the record page show the field.
 */
export function inputHintOf(schema: unknown): InputHint {
  if (!isSchema(schema)) return {};
  if (isSchema(schema['x-input'])) return schema['x-input'] as InputHint;
  return isSchema(schema['x-display']) ? (schema['x-display'] as DisplayHint) : {};
}

/** A resource's field by name, or undefined when the schema has no such property. */
export function fieldOf(model: Pick<ResourceModel, 'fields'>, source: string): FieldModel | undefined {
  return model.fields.find((field) => field.source === source);
}

/** Whether the schema declares a screen (`x-resource`). */
export function declaresResource(schema: Schema): boolean {
  return schema['x-resource'] !== undefined;
}

/** Each schema's model, built on first use from the schemas as written and kept. */
export function modelCache(schema: (schemaId: string) => Schema, resolveRef: RefResolver) {
  const models = new Map<string, ResourceModel>();
  return (schemaId: string): ResourceModel => {
    let model = models.get(schemaId);
    if (!model) {
      model = resourceModel(schema(schemaId), resolveRef);
      models.set(schemaId, model);
    }
    return model;
  };
}
