import { lazy } from 'react';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

/** The resend bar and the delivery log load with the webhooks screens, not with the app. */
const ResendBar = lazy(() => import('./resend-bar.tsx').then((module) => ({ default: module.ResendBar })));
const DeliveryLogPanel = lazy(() =>
  import('./delivery-log-panel.tsx').then((module) => ({ default: module.DeliveryLogPanel })),
);

/** Spec 02 §5, §9: at most 500 webhook events are chosen for one resend. */
export const WEBHOOK_RESEND_MAX = 500;

/**
 * Webhook events (issue 28): searched and read, never created nor edited (the gateway makes them from piece
 * events); chosen events are resent; each event's page shows its delivery log.
 */
export default schemaResource('webhook-event', {
  create: false,
  edit: false,
  panels: { deliveries: DeliveryLogPanel },
  bulkActions: {
    bar: ResendBar,
    max: WEBHOOK_RESEND_MAX,
    // An event on its way now is left to that delivery.
    unselectable: (record) => (record.status === 'sending' ? 'webhooks.outcome.sending' : undefined),
  },
});
