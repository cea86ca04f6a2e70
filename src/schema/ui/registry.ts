import { validators } from '../../types/generated/validators.ts';
import { createStandaloneRegistry } from '../standalone-registry.ts';
import { resourceModel, type ResourceModel } from '../resource-model.ts';

const files = import.meta.glob<object>('../../../schemas/*.schema.json', { eager: true, import: 'default' });

/** The browser's schema registry: validators generated at build time, as the CSP forbids compiling them. */
export const schemaRegistry = createStandaloneRegistry(Object.values(files), validators);

const modelsBySchemaId = new Map<string, ResourceModel>();

export function modelOf(schemaId: string): ResourceModel {
  let model = modelsBySchemaId.get(schemaId);
  if (!model) {
    model = resourceModel(schemaRegistry.schema(schemaId), (ref) => schemaRegistry.resolveRef(ref, schemaId)?.schema);
    modelsBySchemaId.set(schemaId, model);
  }
  return model;
}

/** Every schema that declares a resource, as endpoint maps for the dataProvider. */
export function resourceEndpoints(): Record<string, { endpoint: string; id: string }> {
  const endpoints: Record<string, { endpoint: string; id: string }> = {};
  for (const schema of Object.values(files) as Record<string, unknown>[]) {
    if (!schema['x-resource']) continue;
    const model = modelOf(String(schema.$id));
    endpoints[model.name] = { endpoint: model.endpoint, id: model.id };
  }
  return endpoints;
}
