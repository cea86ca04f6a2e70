import { Suspense } from 'react';
import { useCanAccess } from 'react-admin';
import type { SchemaResource } from '../schema/ui/schema-resource.tsx';
import { resources } from './resources.ts';

function ResourceOverlay({
  resource,
}: {
  resource: SchemaResource & { overlay: NonNullable<SchemaResource['overlay']> };
}) {
  // Quick actions change records: only users who may edit the resource see its part.
  const { canAccess } = useCanAccess({ resource: resource.name, action: 'edit' });
  if (!canAccess) return null;
  const Overlay = resource.overlay;
  return (
    <Suspense fallback={null}>
      <Overlay model={resource.model} />
    </Suspense>
  );
}

/**
 * The main layout's quick-action overlay (spec 01 §2.1): each resource's quick actions that work
 * from any page (`schemaResource(id, { overlay })`, the tickets' today), as buttons in the top bar.
 */
export function QuickActionOverlay() {
  return (
    <>
      {resources.map((resource) =>
        resource.overlay ? (
          <ResourceOverlay key={resource.name} resource={{ ...resource, overlay: resource.overlay }} />
        ) : null,
      )}
    </>
  );
}
