import ConfirmationNumberIcon from '@mui/icons-material/ConfirmationNumber';
import { lazy } from 'react';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

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
const PhotoGalleryInput = lazy(() =>
  import('../../schema/ui/photos/photo-gallery-input.tsx').then((module) => ({ default: module.PhotoGalleryInput })),
);
const TicketPdfButton = lazy(() =>
  import('./ticket-pdf-button.tsx').then((module) => ({ default: module.TicketPdfButton })),
);

export default schemaResource('ticket', {
  icon: ConfirmationNumberIcon,
  inputs: {
    'ticket-unit': TicketUnitInput,
    'ticket-units': TicketUnitsInput,
    'ticket-pinpad': TicketPinpadInput,
    'photo-gallery': PhotoGalleryInput,
  },
  toolbar: [TicketPdfButton],
});
