import type { GatewayCalls } from '../gateway-calls.ts';

/** The dataProvider's opname call (src/dataProvider), as the service point widgets use it. */
export type OpnameQuery = Pick<GatewayCalls, 'action'>;
