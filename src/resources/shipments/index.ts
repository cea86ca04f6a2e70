import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import { lazy } from 'react';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

/**
 * Shipment search and details (issue 16): pieces are read, never created or edited here (bookings
 * create them; their troubleshooting actions change them), so a piece opens as its read-only view
 * with the Events, Troubleshooting and Logs tabs.
 */
const panel = (name: 'PieceEventsPanel' | 'PieceTroubleshootingPanel' | 'PieceLogsPanel') =>
  lazy(() => import('./piece-panels.tsx').then((module) => ({ default: module[name] })));

export default schemaResource('piece', {
  icon: LocalShippingIcon,
  create: false,
  edit: false,
  panels: {
    events: panel('PieceEventsPanel'),
    troubleshooting: panel('PieceTroubleshootingPanel'),
    logs: panel('PieceLogsPanel'),
  },
});
