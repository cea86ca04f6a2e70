import type { Db } from '../../db/adapter.ts';
import type { SpecialRoute } from '../webtool-routes.ts';
import { partnerPageTypes } from '../../../src/contract/partner-types.ts';
import { assertAllowed, ownsPartner, type IdentityAccessContext } from './context.ts';

/** The operator company's display name, as the app shows it. */
const OPERATOR_COMPANY_NAME = process.env.VITE_COMPANY_NAME ?? 'Infinity Lockers';

export interface PartnerEntry {
  partner_type: string;
  partner_id: string;
  name: string;
}

/** The operator company (one entry per operator partner of the roles) and every partner record. */
export async function partnerEntries(db: Db): Promise<PartnerEntry[]> {
  const records = await db.query<{ resource: string; key: string; name: string | null }>(
    `SELECT resource, key, doc->>'name' AS name FROM records WHERE resource = ANY($1::text[])`,
    [partnerPageTypes.map((type) => `partners/${type}`)],
  );
  const operators = await db.query<{ partner: string }>(
    `SELECT DISTINCT doc->>'partner' AS partner FROM records
     WHERE resource = 'identity_access/roles' AND doc->>'partner_type' = 'operator'`,
  );
  return [
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
}

/**
 * The name of every partner by partner type and id, the operator company's for the operator (whose
 * partner is `infinity`): what a list shows instead of a bare `1` or `infinity`.
 */
export async function partnerNames(db: Db): Promise<(partnerType?: string, partner?: string) => string | undefined> {
  const names = new Map(
    (await partnerEntries(db)).map((entry) => [`${entry.partner_type}:${entry.partner_id}`, entry.name]),
  );
  return (partnerType, partner) =>
    names.get(`${partnerType}:${partner}`) ?? (partnerType === 'operator' ? OPERATOR_COMPANY_NAME : undefined);
}

export function partnerRoutes(ctx: IdentityAccessContext): Record<string, SpecialRoute> {
  /** GET identity_access/partners: the operator company and every partner record; a partner sees itself. */
  const list: SpecialRoute = async ({ access, db }) => {
    assertAllowed(ctx, access, 'read');
    const entries = await partnerEntries(db);
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
