import { lazy } from 'react';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

/** The order's log and its units' link load with the first order opened, not with the app. */
const OrderLogPanel = lazy(() => import('./order-log-panel.tsx').then((module) => ({ default: module.OrderLogPanel })));
const ProducedUnitsButton = lazy(() =>
  import('./produced-units-button.tsx').then((module) => ({ default: module.ProducedUnitsButton })),
);

export default schemaResource('hardware-order', {
  panels: { order_log: OrderLogPanel },
  toolbar: [ProducedUnitsButton],
});
