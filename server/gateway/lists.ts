import type { SpecialRoute } from './webtool-routes.ts';
import { badRequest } from './http-error.ts';

const TYPE = /^[a-z_]{2,40}$/;

/**
 * GET webtool/lists?type=...: a lookup list as `{ column_id, column_name }` items (spec 01 §7).
 * Lookups are shared reference data, the same for every partner.
 */
export const listsRoute: SpecialRoute = async ({ request, db }) => {
  const { type } = request.query as { type?: unknown };
  if (typeof type !== 'string' || !TYPE.test(type)) throw badRequest('type is required: the name of a lookup list.');
  const result = await db.query<{ column_id: number | string; column_name: string }>(
    `SELECT doc->'column_id' AS column_id, doc->>'column_name' AS column_name
     FROM records WHERE resource = 'lists' AND doc->>'type' = $1 ORDER BY doc->>'column_name'`,
    [type],
  );
  return { success: true, data: result.rows, total: result.rows.length };
};
