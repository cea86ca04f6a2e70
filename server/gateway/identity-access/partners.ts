import type { Db } from '../../db/adapter.ts';
import type { SpecialRoute } from '../webtool-routes.ts';
import { assertAllowed, ownsPartner, partnerPageTypes, type IdentityAccessContext } from './context.ts';

/** The operator company's display name, as the app shows it. */
const OPERATOR_COMPANY_NAME = process.env.VITE_COMPANY_NAME ?? 'Infinity Lockers';

interface PartnerEntry {
  partner_type: string;
  partner_id: string;
  name: string;
}

/**
 * The name of every partner by partner type and id, the operator company's for the operator (whose
 * partner is `infinity`): what a list shows instead of a bare `1` or `infinity`.
 */
export async function partnerNames(db: Db): Promise<(partnerType?: string, partner?: string) => string | undefined> {
  const records = await db.query<{ resource: string; key: string; name: string | null }>(
    `SELECT resource, key, doc->>'name' AS name FROM records WHERE resource = ANY($1::text[])`,
    [partnerPageTypes.map((type) => `partners/${type}`)],
  );
  const names = new Map(records.rows.map((row) => [`${row.resource}:${row.key}`, row.name ?? row.key]));
  return (partnerType, partner) => {
    if (!partnerType || partner === undefined) return undefined;
    if (partnerType === 'operator') return OPERATOR_COMPANY_NAME;
    return names.get(`partners/${partnerType}:${partner}`);
  };
}

export function partnerRoutes(ctx: IdentityAccessContext): Record<string, SpecialRoute> {
  /** GET identity_access/partners: the operator company and every partner record; a partner sees itself. */
  const list: SpecialRoute = async ({ access, db }) => {
    assertAllowed(ctx, access, 'read');
    const records = await db.query<{ resource: string; key: string; name: string | null }>(
      `SELECT resource, key, doc->>'name' AS name FROM records WHERE resource = ANY($1::text[])`,
      [partnerPageTypes.map((type) => `partners/${type}`)],
    );
    const operators = await db.query<{ partner: string }>(
      `SELECT DISTINCT doc->>'partner' AS partner FROM records
       WHERE resource = 'identity_access/roles' AND doc->>'partner_type' = 'operator'`,
    );
    const entries: PartnerEntry[] = [
      ...operators.rows.map((row) => ({
        partner_type: 'operator',
        partner_id: row.partner,
        name: OPERATOR_COMPANY_NAME,
      })),
      ...records.rows.map((row) => ({
        partner_type: row.resource.slice('partners/'.length),
        partner_id: row.key,
        name: row.name ?? row.key,
      })),
    ];
    const typeOrder = (type: string) => (type === 'operator' ? -1 : partnerPageTypes.indexOf(type as never));
    const data = entries
      .filter((entry) => ownsPartner(access, entry.partner_type, entry.partner_id))
      .sort(
        (a, b) =>
          typeOrder(a.partner_type) - typeOrder(b.partner_type) ||
          a.name.localeCompare(b.name) ||
          a.partner_id.localeCompare(b.partner_id),
      );
    return { success: true, data, total: data.length };
  };

  return { 'GET identity_access/partners': list };
}
