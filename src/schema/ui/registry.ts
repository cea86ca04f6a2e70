import type { ValidateFunction } from 'ajv';
import { createStandaloneRegistry } from '../standalone-registry.ts';
import { declaresResource, formModel, type FormModel, type ResourceModel, type Schema } from '../resource-model.ts';

const files = import.meta.glob<Schema>('../../../schemas/*.schema.json', { eager: true, import: 'default' });

/** Filled by `loadValidators`. */
const validators: Record<string, ValidateFunction> = {};
let validatorsLoading: Promise<void> | undefined;

/**
 * Fetches the validators generated at build time (as the CSP forbids compiling them): a chunk of
 * their own, with the phone number library, that forms load as they open and await before they
 * validate, so that a list, which validates nothing, does not wait for them.
 */
export function loadValidators(): Promise<void> {
  return (validatorsLoading ??= import('../../types/generated/validators.ts').then(
    (module) => void Object.assign(validators, module.validators),
    (error: unknown) => {
      // A failed fetch is tried again by the next form.
      validatorsLoading = undefined;
      throw error;
    },
  ));
}

/** The browser's schema registry; its `validator()` answers once `loadValidators()` has settled. */
export const schemaRegistry = createStandaloneRegistry(Object.values(files), validators);

export function modelOf(schemaId: string): ResourceModel {
  return schemaRegistry.model(schemaId);
}

type ResourceEndpointModel = Pick<ResourceModel, 'endpoint' | 'id' | 'deleteSends' | 'searchPageSize' | 'sort'>;

let endpointModels: Record<string, ResourceEndpointModel> | undefined;

const forms = new Map<string, FormModel>();

/** The fields of a schema that declares no resource, such as a record action's form; built once. */
export function formOf(schemaId: string): FormModel {
  let form = forms.get(schemaId);
  if (!form) {
    form = formModel(schemaRegistry.schema(schemaId), schemaRegistry.resolveRef);
    forms.set(schemaId, form);
  }
  return form;
}

/** Every schema that declares a resource, as endpoint maps for the dataProvider. */
export function resourceEndpoints(): Record<string, ResourceEndpointModel> {
  if (endpointModels) return endpointModels;
  const endpoints: Record<string, ResourceEndpointModel> = {};
  for (const schema of Object.values(files)) {
    if (!declaresResource(schema)) continue;
    const model = modelOf(String(schema.$id));
    endpoints[model.name] = {
      endpoint: model.endpoint,
      id: model.id,
      deleteSends: model.deleteSends,
      searchPageSize: model.searchPageSize,
      sort: model.sort,
    };
  }
  endpointModels = endpoints;
  return endpoints;
}

/**
 * The order a search for a record of `resource` lists its matches in: the resource's default order,
 * so that its `sort.last` records (terminated service points) come after the ones to pick.
 */
export function searchSortOf(resource: string): { field: string; order: 'ASC' | 'DESC' } | undefined {
  const sort = resourceEndpoints()[resource]?.sort;
  return sort && { field: sort.field, order: sort.order };
}

/** Rows a search for a record of `resource` fetches: its `x-resource.searchPageSize`, else 20. */
export function searchPageSizeOf(resource: string): number {
  return resourceEndpoints()[resource]?.searchPageSize ?? 20;
}

let modelsByName: Map<string, ResourceModel> | undefined;

/** Every schema's resource by its name, built once. */
function resourceModels(): Map<string, ResourceModel> {
  if (!modelsByName) {
    modelsByName = new Map();
    for (const schema of Object.values(files)) {
      if (!declaresResource(schema)) continue;
      const model = modelOf(String(schema.$id));
      modelsByName.set(model.name, model);
    }
  }
  return modelsByName;
}

let resourcesByList: Map<string, string> | undefined;

/**
 * The resource whose records a lookup list names (`webtool/lists?type=location_owners` -> `location-owners`),
 * from the `x-resource.lookupLists` of the schemas; undefined for a list of plain values (a country, a badge).
 */
export function resourceOfLookup(source: string): string | undefined {
  resourcesByList ??= new Map(
    [...resourceModels().values()].flatMap((model) => model.lookupLists.map((list) => [list, model.name] as const)),
  );
  const type = new URL(source, 'http://lookup.invalid').searchParams.get('type');
  return type ? resourcesByList.get(type) : undefined;
}

/** The resource named `name` (`hardware`, `service-points`); undefined for a name no schema declares. */
export function modelOfResource(name: string): ResourceModel | undefined {
  return resourceModels().get(name);
}
