import { lazy } from 'react';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

/**
 * Shipment search and details (issue 16): pieces are read, never created or edited here (bookings
 * create them; their troubleshooting actions change them), so a piece opens as its read-only view
 * with the Events, Troubleshooting and Logs tabs.
 */
type PanelName =
  | 'PieceEventsPanel'
  | 'PieceTroubleshootingPanel'
  | 'PieceLogsPanel'
  | 'PiecePlaceValue'
  | 'PieceCompartmentValue'
  | 'PieceEndUserValue'
  | 'PieceTokensValue'
  | 'PieceNotificationsValue';
const panel = (name: PanelName) =>
  lazy(() => import('./piece-panels.tsx').then((module) => ({ default: module[name] })));

const PieceWebAppLink = lazy(() =>
  import('./piece-web-app-link.tsx').then((module) => ({ default: module.PieceWebAppLink })),
);

export default schemaResource('piece', {
  create: false,
  edit: false,
  // The end-user web app link, for users with its feature option (spec 01 §6).
  toolbar: [PieceWebAppLink],
  panels: {
    events: panel('PieceEventsPanel'),
    troubleshooting: panel('PieceTroubleshootingPanel'),
    logs: panel('PieceLogsPanel'),
  },
  // The piece's own tab reads its unit, tokens and notifications as the Events tab does.
  values: {
    'piece-place': panel('PiecePlaceValue'),
    'piece-compartment': panel('PieceCompartmentValue'),
    'piece-end-user': panel('PieceEndUserValue'),
    'piece-tokens': panel('PieceTokensValue'),
    'piece-notifications': panel('PieceNotificationsValue'),
  },
});
