import { assertResourceAccess } from '../../caller-access.ts';
import type { ResourceDefinition } from '../../resource-registry.ts';
import type { SpecialRoute } from '../../webtool-routes.ts';
import { pieceLogs } from './shipments.ts';

/**
 * Spec 02 §7: `GET webtool/shipments/piece_logs {piece_barcode, piece_id}`, the log of one piece (route
 * /piece-logs): read as the shipments resource is, the same tenancy.
 */
export function pieceLogsRoutes(resources: Map<string, ResourceDefinition>): Record<string, SpecialRoute> {
  return {
    'GET shipments/piece_logs': async ({ request, access, db }) => {
      const resource = resources.get('shipments')!;
      assertResourceAccess(access, resource, 'read');
      const query = Object.fromEntries(
        Object.entries(request.query as Record<string, unknown>).map(([key, value]) => [key, String(value)]),
      );
      return pieceLogs({ db, access, resource }, query);
    },
  };
}
