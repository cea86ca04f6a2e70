import { lazy } from 'react';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

/** The search, the pieces tab and the deletion button load with the first end-user page, not with the app. */
const EndUserSearch = lazy(() => import('./end-user-search.tsx').then((module) => ({ default: module.EndUserSearch })));
const EndUserPieces = lazy(() => import('./end-user-pieces.tsx').then((module) => ({ default: module.EndUserPieces })));
const MarkForDeletionButton = lazy(() =>
  import('./mark-for-deletion-button.tsx').then((module) => ({ default: module.MarkForDeletionButton })),
);

/**
 * End users (spec 02 §3, §4, §5, §7): found by phone number or e-mail, read with their pieces and events,
 * edited (a new phone or e-mail only with every security question ticked, which the gateway checks too)
 * and marked for deletion. Nobody types an end user in: bookings and the carriers' systems make them.
 */
export default schemaResource('end-user', {
  create: false,
  list: EndUserSearch,
  panels: { pieces: EndUserPieces },
  toolbar: [MarkForDeletionButton],
});
