import type { ComponentType } from 'react';
import type { RaRecord } from 'react-admin';
import type { ResourceModel } from '../resource-model.ts';
import { modelOf } from './registry.ts';
import { areaOfResource } from '../areas.ts';
import { areaIcons } from './area-icons.tsx';
import type { InputKinds, ValueKinds } from './input-kinds.tsx';
import type { TabPanelProps, TabPanels } from './tab-panels.tsx';
import { lazyPage, type LazyPage } from './lazy-page.tsx';
import type { BulkActions } from './bulk-actions.tsx';

export interface SchemaResource {
  name: string;
  model: ResourceModel;
  list: ComponentType;
  create?: ComponentType;
  edit?: ComponentType;
  show: ComponentType;
  icon?: ComponentType;
  recordRepresentation: string;
  /** The resource's part of the main layout's quick-action overlay, for users who may edit it. */
  overlay?: ComponentType<{ model: ResourceModel }>;
  /** The `x-input` / `x-display` kinds the resource registers a widget or a display for (`inputs`, `values`). */
  kinds: readonly string[];
}

export interface SchemaResourceOptions {
  /** Read-only resources leave these out. */
  create?: boolean;
  /**
   * The resource's quick actions reachable from any page (spec 01 §2.1, the main layout's
   * quick-action overlay): a button in the top bar and what it opens, shown to users who may edit
   * the resource. Should be `React.lazy`: it loads when the layout draws it.
   */
  overlay?: ComponentType<{ model: ResourceModel }>;
  edit?: boolean;
  /** The resource's own widgets, by the `x-input.kind` that names them in its schema. */
  inputs?: InputKinds;
  /** The resource's own read-only display of a field, by its `x-input.kind`, in the record view. */
  values?: ValueKinds;
  /** The resource's own content of schema tabs without inputs, by tab name (a locker's compartment grid). */
  panels?: TabPanels;
  /**
   * The resource's own buttons at the top of a record's edit page and read-only view (a service point's
   * PDF sheet), each given the model, with the record in the record context. May be `React.lazy`.
   */
  toolbar?: readonly ComponentType<TabPanelProps>[];
  /** Bulk actions on the list: a checkbox per row and the resource's bar for the chosen rows (the tickets' quick actions). */
  bulkActions?: BulkActions;
  /** The resource's own buttons in its list's toolbar, each given the model. May be `React.lazy`. */
  listActions?: readonly ComponentType<{ model: ResourceModel }>[];
  /**
   * Records others save while the list is open: counted in a banner that refreshes on click (default),
   * or refreshed in place (the alerts: a support desk watches them come and go).
   */
  liveList?: 'banner' | 'inPlace';
  /**
   * The resource's own content at the end of its create form, inside the form (it reads the typed
   * values with react-hook-form's `useWatch`): a booking's capacity check. May be `React.lazy`.
   */
  createExtras?: readonly ComponentType<TabPanelProps>[];
  /**
   * A hook giving what happens after a create, once the saved toast is shown: the address to open
   * instead of the list (a booking opens its label print page), or undefined for the list.
   */
  useAfterCreate?: () => AfterCreate | undefined;
  /** The resource's own list page instead of the schema's table (the end user search). May be lazy. */
  list?: ComponentType<TabPanelProps>;
}

/** What a create's `useAfterCreate` gives: from the saved record, the address to open next. */
export type AfterCreate = (record: RaRecord) => Promise<string | undefined>;

const loadListPages = () => import('./list-pages.tsx');
const loadRecordPages = () => import('./record-pages.tsx');
const listPages: LazyPage<object>[] = [];

/**
 * Starts fetching the list pages' code. The admin calls it as it loads: most screens start at a
 * list, and fetched beside the session and navigation calls it costs no extra wait. The record
 * pages (forms, record view) load when one first opens.
 */
export function preloadSchemaPages() {
  for (const page of listPages) page.preload();
}

/** A resource's icon is its area's (src/schema/areas.ts), the one its menu item shows. */
function iconOf(resource: string): ComponentType | undefined {
  const icon = areaOfResource(resource)?.icon;
  return icon && areaIcons[icon];
}

/**
 * A react-admin resource built from one schema; per-resource code only passes overrides. The
 * descriptor (name, model, icon) loads with the admin, for the menu and the access rules; the pages
 * are lazy: the list (list-pages.tsx) apart from the record pages (record-pages.tsx).
 */
export function schemaResource(schemaId: string, options: SchemaResourceOptions = {}): SchemaResource {
  const model = modelOf(schemaId);
  const withCreate = options.create ?? true;
  const withEdit = options.edit ?? true;
  const list = lazyPage(async () => (await loadListPages()).listPage(model, options));
  listPages.push(list);
  const records = async () => (await loadRecordPages()).recordPages(model, options);
  let loaded: ReturnType<typeof records> | undefined;
  const page = (pick: (built: Awaited<ReturnType<typeof records>>) => ComponentType) =>
    lazyPage(async () => pick(await (loaded ??= records())));
  return {
    name: model.name,
    model,
    list,
    create: withCreate ? page((built) => built.CreatePage) : undefined,
    edit: withEdit ? page((built) => built.EditPage) : undefined,
    show: page((built) => built.ShowPage),
    icon: iconOf(model.name),
    recordRepresentation: model.representation,
    overlay: options.overlay,
    kinds: [...new Set([...Object.keys(options.inputs ?? {}), ...Object.keys(options.values ?? {})])],
  };
}
