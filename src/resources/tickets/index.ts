import { lazy } from 'react';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';
import { isQuickActionExcluded, type TicketBadgeInput } from '../../schema/ticket-badge.ts';
import { QUICK_ACTIONS_MAX } from '../../schema/ticket-quick-actions.ts';

/** The ticket's own widgets load with the first form that shows them, not with the app. */
const TicketUnitInput = lazy(() =>
  import('./ticket-hardware-inputs.tsx').then((module) => ({ default: module.TicketUnitInput })),
);
const TicketUnitsInput = lazy(() =>
  import('./ticket-hardware-inputs.tsx').then((module) => ({ default: module.TicketUnitsInput })),
);
const TicketPinpadInput = lazy(() =>
  import('./ticket-hardware-inputs.tsx').then((module) => ({ default: module.TicketPinpadInput })),
);
const TicketServicePointInput = lazy(() =>
  import('./ticket-assignment-inputs.tsx').then((module) => ({ default: module.TicketServicePointInput })),
);
const TicketOperatorInput = lazy(() =>
  import('./ticket-assignment-inputs.tsx').then((module) => ({ default: module.TicketOperatorInput })),
);
const TicketKindInput = lazy(() =>
  import('./ticket-kind-inputs.tsx').then((module) => ({ default: module.TicketKindInput })),
);
const PhotoGalleryInput = lazy(() =>
  import('../../schema/ui/photos/photo-gallery-input.tsx').then((module) => ({ default: module.PhotoGalleryInput })),
);
const TicketPdfButton = lazy(() =>
  import('./ticket-pdf-button.tsx').then((module) => ({ default: module.TicketPdfButton })),
);

/** The quick actions bar and the periodic tickets switch load with the tickets list, not with the app. */
const QuickActionsBar = lazy(() =>
  import('./quick-actions-bar.tsx').then((module) => ({ default: module.QuickActionsBar })),
);
/** The tickets' part of the main layout's quick-action overlay loads when the top bar draws it. */
const TicketQuickActionOverlay = lazy(() => import('./quick-action-overlay.tsx'));
const PeriodicTicketsButton = lazy(() =>
  import('./periodic-tickets-button.tsx').then((module) => ({ default: module.PeriodicTicketsButton })),
);

export default schemaResource('ticket', {
  inputs: {
    'ticket-unit': TicketUnitInput,
    'ticket-units': TicketUnitsInput,
    'ticket-pinpad': TicketPinpadInput,
    'ticket-service-point': TicketServicePointInput,
    'ticket-operator': TicketOperatorInput,
    'ticket-kind': TicketKindInput,
    'photo-gallery': PhotoGalleryInput,
  },
  toolbar: [TicketPdfButton],
  // Spec 02 §4, §5: at most 50 tickets; Declined, Closed, Courier and Service ones cannot be chosen.
  bulkActions: {
    bar: QuickActionsBar,
    max: QUICK_ACTIONS_MAX,
    unselectable: (record) =>
      isQuickActionExcluded(record as unknown as TicketBadgeInput) ? 'quick_actions.excluded' : undefined,
  },
  listActions: [PeriodicTicketsButton],
  overlay: TicketQuickActionOverlay,
});
