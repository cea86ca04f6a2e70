import { gzipSync } from 'node:zlib';
import type { SpecialRoute } from './webtool-routes.ts';
import { badRequest } from './http-error.ts';
import { ownsPartner } from './identity-access/context.ts';
import { partnerEntries } from './identity-access/partners.ts';
import { scoutsFor } from './identity-access/scouts.ts';
import { HARDWARE_MODELS } from './rules/shared/hardware-store.ts';
import { MAX_LIMIT } from './record-store.ts';

const TYPE = /^[a-z_]{2,40}$/;
/** The only colours a list item passes on: `#rrggbb`, as the carrier form stores them. */
const HEX_COLOR = /^#[0-9a-f]{6}$/i;

/**
 * Lookup lists read from records of their own: the partners a service point refers to (spec 02 §7,
 * "partners by partner_type ordered by name") and the service point groups. Their names stay those of
 * the records, so a renamed partner shows its new name in every list, picker and export.
 */
export const RECORD_LOOKUPS: Record<string, { resource: string; id: string; name: string; color?: string }> = {
  // A carrier's badge wears the carrier's own colour wherever its service points are listed or exported.
  carrier_list: { resource: 'partners/carrier', id: 'carrier_id', name: 'name', color: 'color_code' },
  location_owners: { resource: 'partners/location_owner', id: 'location_owner_id', name: 'name' },
  maintenance_providers: { resource: 'partners/maintenance_provider', id: 'maintenance_provider_id', name: 'name' },
  support_providers: { resource: 'partners/support_provider', id: 'support_provider_id', name: 'name' },
  hardware_owners: { resource: 'partners/hardware_provider', id: 'hardware_owner_id', name: 'name' },
  hotline_providers: { resource: 'partners/hotline_provider', id: 'hotline_provider_id', name: 'name' },
  // A hardware order's customer (spec 02 §7 `lists?type=customers`): the hardware owner its units go to.
  customers: { resource: 'partners/hardware_provider', id: 'hardware_owner_id', name: 'name' },
  // The maintenance operators a ticket is assigned to (spec 02 §3), by name.
  maintenance_operators: { resource: 'maintenance/operators', id: 'operator_id', name: 'name' },
  service_point_groups: {
    resource: 'service_points/service_point_groups',
    id: 'service_point_group_id',
    name: 'group_name',
  },
};

/** The models of one kind of hardware (spec 01 §7, "hardware models by hardware type"), by id. */
const MODEL_LOOKUPS: Record<string, number> = { hardware_models: 1, pinpad_models: 2 };
/** The shell asks for 50 models (spec 01 §7); the hardware screens ask for their 100 with `limit`. */
const MODEL_LIMIT = 50;

function modelLimit(value: unknown): number {
  if (value === undefined || value === '') return MODEL_LIMIT;
  const limit = typeof value === 'string' && /^\d{1,7}$/.test(value) ? Number(value) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) throw badRequest('gateway.limit_range', { max: MAX_LIMIT });
  return limit;
}

/**
 * The names of the partners whose users the caller sees (a webtool user's partner_name), each once:
 * the operator company's, every partner record's, or a partner's own.
 */
const PARTNER_NAMES = 'partner_names';

/**
 * The scouts a service point's scout contact may name (spec 02 §7 `lists?type=scout`): the caller's
 * provider's scout-level users, and for a super admin the super admin users; by user_id, named by
 * username and e-mail.
 */
const SCOUTS = 'scout';

/** The municipalities a location names (spec 02 §7), by country when `country_iso` is given. */
const MUNICIPALITIES = 'municipality';

/**
 * The postal codes of the address index (spec 02 §7 "postal_codes compressed"), by country when
 * `country_iso` is given: `{ column_id: code, column_name: 'code city', city, municipality_id, country }`,
 * answered gzip-compressed as base64 (`compressed: "gzip-base64"`) unless `compressed=false`.
 */
const POSTAL_CODES = 'postal_codes';

/**
 * GET webtool/lists?type=...: a lookup list as `{ column_id, column_name }` items (spec 01 §7).
 * Lookups are shared reference data, the same for every partner, but for the partner names of users.
 */
export const listsRoute: SpecialRoute = async ({ request, access, db }) => {
  const { type } = request.query as { type?: unknown };
  if (typeof type !== 'string' || !TYPE.test(type)) throw badRequest('gateway.param_required', { name: 'type' });
  if (type === PARTNER_NAMES) {
    const names = (await partnerEntries(db))
      .filter((entry) => ownsPartner(access, entry.partner_type, entry.partner_id))
      .map((entry) => entry.name);
    const data = [...new Set(names)]
      .sort((a, b) => a.localeCompare(b))
      .map((name) => ({ column_id: name, column_name: name }));
    return { success: true, data, total: data.length };
  }
  if (type === SCOUTS) {
    const data = (await scoutsFor(db, access))
      .map((user) => ({ column_id: user.user_id, column_name: `${user.username} (${user.email})`, email: user.email }))
      .sort((a, b) => a.column_name.localeCompare(b.column_name));
    return { success: true, data, total: data.length };
  }
  const fromRecords = Object.hasOwn(RECORD_LOOKUPS, type) ? RECORD_LOOKUPS[type] : undefined;
  if (fromRecords) {
    const result = await db.query<{ column_id: number | string; column_name: string; color: string | null }>(
      `SELECT doc->($2::text) AS column_id, doc->>($3::text) AS column_name, doc->>($4::text) AS color
       FROM records WHERE resource = $1`,
      [fromRecords.resource, fromRecords.id, fromRecords.name, fromRecords.color ?? ''],
    );
    // By name as people read it ('Øresund' among the O's), which the database's byte order is not.
    const data = result.rows
      .sort((a, b) => a.column_name.localeCompare(b.column_name))
      .map(({ color, ...item }) => (color && HEX_COLOR.test(color) ? { ...item, color } : item));
    return { success: true, data, total: data.length };
  }
  if (type === POSTAL_CODES) {
    const { country_iso: country, compressed } = request.query as { country_iso?: unknown; compressed?: unknown };
    if (country !== undefined && (typeof country !== 'string' || !/^[A-Z]{2}$/.test(country))) {
      throw badRequest('gateway.param_required', { name: 'country_iso' });
    }
    if (compressed !== undefined && compressed !== 'true' && compressed !== 'false') {
      throw badRequest('gateway.boolean_expected', { field: 'compressed' });
    }
    const result = await db.query<{ postal_code: string; city: string; municipality_id: number; country: string }>(
      `SELECT DISTINCT postal_code, city, municipality_id, country FROM addresses
       WHERE postal_code IS NOT NULL AND ($1 = '' OR country = $1) ORDER BY country, postal_code, city`,
      [country ?? ''],
    );
    const data = result.rows.map((row) => ({
      column_id: row.postal_code,
      column_name: `${row.postal_code} ${row.city}`,
      city: row.city,
      municipality_id: row.municipality_id,
      country: row.country,
    }));
    if (compressed === 'false') return { success: true, data, total: data.length };
    return {
      success: true,
      compressed: 'gzip-base64',
      data: gzipSync(JSON.stringify(data)).toString('base64'),
      total: data.length,
    };
  }
  if (type === MUNICIPALITIES) {
    // Spec 02 §7, `lists?type=municipality&country_iso=`: the municipalities of the address index.
    const { country_iso: country } = request.query as { country_iso?: unknown };
    if (country !== undefined && (typeof country !== 'string' || !/^[A-Z]{2}$/.test(country))) {
      throw badRequest('gateway.param_required', { name: 'country_iso' });
    }
    const result = await db.query<{ column_id: number; column_name: string; country: string }>(
      `SELECT DISTINCT municipality_id AS column_id, municipality_name AS column_name, country FROM addresses
       WHERE municipality_id IS NOT NULL AND ($1 = '' OR country = $1)`,
      [country ?? ''],
    );
    const data = result.rows.sort((a, b) => a.column_name.localeCompare(b.column_name));
    return { success: true, data, total: data.length };
  }
  if (Object.hasOwn(MODEL_LOOKUPS, type)) {
    const limit = modelLimit((request.query as { limit?: unknown }).limit);
    // `total` counts every model of the kind, so a caller sees when the limit left some out.
    const result = await db.query<{ column_id: number; column_name: string; total: number }>(
      `SELECT doc->'hardware_model_id' AS column_id, doc->>'name' AS column_name, (count(*) OVER ())::int AS total
       FROM records WHERE resource = $1 AND doc->>'hardware_type' = $2 ORDER BY doc->>'name' LIMIT $3`,
      [HARDWARE_MODELS, String(MODEL_LOOKUPS[type]), limit],
    );
    const data = result.rows.map(({ column_id, column_name }) => ({ column_id, column_name }));
    return { success: true, data, total: result.rows[0]?.total ?? 0 };
  }
  // A list whose items carry a colour (the hardware badges) answers it with them.
  const result = await db.query<{ column_id: number | string; column_name: string; color: string | null }>(
    `SELECT doc->'column_id' AS column_id, doc->>'column_name' AS column_name, doc->>'color' AS color
     FROM records WHERE resource = 'lists' AND doc->>'type' = $1 ORDER BY doc->>'column_name'`,
    [type],
  );
  const data = result.rows.map(({ color, ...item }) => (color === null ? item : { ...item, color }));
  return { success: true, data, total: data.length };
};
