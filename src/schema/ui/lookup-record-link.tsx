import type { MouseEvent, ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Link } from '@mui/material';
import { useCanAccess, useCreatePath } from 'react-admin';
import { resourceOfLookup } from './registry.ts';

/**
 * The resource whose record a lookup list's value is (`lists?type=location_owners` -> `location-owners`,
 * `x-resource.lookupLists`), when the user may open it; undefined for a list of plain values or a
 * resource the user may not open, whose name then reads as text rather than a link to a 404.
 */
export function useLookupRecordResource(source: string | undefined): string | undefined {
  const resource = source ? resourceOfLookup(source) : undefined;
  const { canAccess } = useCanAccess({ resource: resource ?? '', action: 'list', enabled: Boolean(resource) });
  return resource && canAccess ? resource : undefined;
}

/** A lookup value's name, linked to its record's page when `resource` is given. */
export function LookupRecordLink({
  resource,
  id,
  children,
}: {
  resource: string | undefined;
  id: unknown;
  children: ReactNode;
}) {
  const createPath = useCreatePath();
  if (!resource) return <>{children}</>;
  return (
    <Link
      component={RouterLink}
      to={createPath({ resource, id: String(id), type: 'edit' })}
      // Inside a clickable row, following the link is not opening the row.
      onClick={(event: MouseEvent) => event.stopPropagation()}
    >
      {children}
    </Link>
  );
}
