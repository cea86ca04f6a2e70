import { schemaResource } from '../../schema/ui/schema-resource.tsx';

/** Infinity test app users (issue 28): the engine's list, create, edit and delete; the gateway keeps the rules. */
export default schemaResource('test-app-user');
