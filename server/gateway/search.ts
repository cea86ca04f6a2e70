import type { Db } from '../db/adapter.ts';
import type { SearchGroup, SearchItem, SearchKind, SearchResponse } from '../../src/contract/search.ts';
import { SEARCH_KINDS, SEARCH_MAX_LENGTH, SEARCH_MAX_LIMIT } from '../../src/contract/search.ts';
import { searchablePhone } from '../../src/schema/phone-search.ts';
import { assertResourceAccess, type CallerAccess } from './caller-access.ts';
import { HttpError, keyedError } from './http-error.ts';
import { ownsPartner } from './identity-access/context.ts';
import { partnerNames } from './identity-access/partners.ts';
import { allUsers } from './identity-access/user-directory.ts';
import { nonNegativeInt, single } from './list-query.ts';
import { escapeLike, scopeSql, searchCondition, type Doc } from './record-store.ts';
import { loadSchemas, type ResourceDefinition } from './resource-registry.ts';
import { visibleEndUsersClause } from './rules/shipments/end-users.ts';
import { readableDoc, scopeFor, type Scope } from './tenancy.ts';
import type { SpecialRoute } from './webtool-routes.ts';

/**
 * `GET webtool/search?q=&limit=&country=` (issue 31.1, an extension beside the spec's contract): one query
 * looked up in every kind of record the caller may list, each kind scoped exactly as its list is
 * (`assertResourceAccess` for the list's read, `scopeFor` for its tenancy, `readableDoc` for the fields a
 * partner reads); a kind the caller may not list is not searched. Every value goes to SQL as a parameter
 * and LIKE patterns are escaped, so `%`, `_`, `\` and quotes are matched as typed.
 */

/** Below this many characters a text is only compared whole or by its start: a substring would match too much. */
const CONTAINS_MIN = 3;
/** Per kind, unless `limit` says otherwise. */
const DEFAULT_LIMIT = 5;
/** The country a phone typed without its prefix is read in when the request names none (spec 01 §9). */
const DEFAULT_COUNTRY = 'PL';

interface Match {
  key: string;
  doc: Doc;
  /** 0 exact, 1 starts with, 2 contains: the order the items are shown in. */
  rank: number;
}

interface KindContext {
  db: Db;
  access: CallerAccess;
  resources: ReadonlyMap<string, ResourceDefinition>;
  resource: ResourceDefinition;
  scope: Exclude<Scope, 'none'>;
  /** The query as typed (trimmed). */
  text: string;
  /** Lower-cased. */
  lower: string;
  limit: number;
  country: string;
}

/** How one kind finds its records, and what of each it answers. */
interface KindSearch {
  kind: Exclude<SearchKind, 'webtool_users' | 'partners'>;
  endpoint: string;
  find(ctx: KindContext): Promise<Match[]>;
  /** The few fields that tell two results apart (besides the label). */
  fields: string[];
  /** The app route's last part after `/<resource>/<id>` (a tab), if any. */
  tab?: string;
}

const PARTNER_ENDPOINTS = [
  'partners/location_owner',
  'partners/maintenance_provider',
  'partners/support_provider',
  'partners/hardware_provider',
  'partners/hotline_provider',
];

/** A schema's endpoint (`service_points/pinpad`) as an SQL literal; checked, though schemas are no user input. */
function resourceLiteral(resource: ResourceDefinition) {
  if (!/^[a-z_/]+$/.test(resource.endpoint)) throw new Error(`Unexpected endpoint ${resource.endpoint}`);
  return `'${resource.endpoint}'`;
}

/** Rows of one resource where `condition` holds and the caller's scope does, at most `limit`. */
async function rows(
  ctx: KindContext,
  condition: (params: unknown[]) => string,
  rank: number,
  limit = ctx.limit,
): Promise<Match[]> {
  const params: unknown[] = [];
  // The resource as a literal, not a parameter: the partial indexes of migration 044 name theirs so.
  const where = [`resource = ${resourceLiteral(ctx.resource)}`, condition(params)];
  if (ctx.scope !== 'all') where.push(scopeSql(ctx.resource, ctx.scope, params));
  params.push(limit);
  const found = await ctx.db.query<{ key: string; doc: Doc }>(
    `SELECT key, doc FROM records WHERE ${where.join(' AND ')} LIMIT $${params.length}`,
    params,
  );
  return found.rows.map((row) => ({ key: row.key, doc: row.doc, rank }));
}

/** The record whose id is the query, when it has the id's shape. */
function byId(ctx: KindContext): Promise<Match[]> {
  const type = ctx.resource.fieldsBySource.get(ctx.resource.id)?.type;
  const id = ctx.text.replace(/^#/, '');
  if ((type === 'integer' || type === 'number') && !/^\d{1,15}$/.test(id)) return Promise.resolve([]);
  return rows(ctx, (params) => `key = $${params.push(id)}`, 0, 1);
}

/**
 * Records whose field starts with the query in any case, through the field's pattern index (migration 026
 * or 044). No ORDER BY: the index's range scan stops at the limit, where sorting would first read every
 * match (a million barcodes share their first four characters); it yields them in byte order, so a whole
 * match comes before its longer neighbours.
 */
function byPrefix(ctx: KindContext, field: string, min = 1): Promise<Match[]> {
  if (ctx.lower.length < min) return Promise.resolve([]);
  return rows(ctx, (params) => `lower(doc->>'${field}') LIKE $${params.push(`${escapeLike(ctx.lower)}%`)}`, 1);
}

/**
 * Records whose search text (the schema's `x-resource.search` fields) holds the query: the trigram index of
 * migration 052, or the resource's own in `record_search_texts` (migration 054).
 */
function bySearchText(ctx: KindContext): Promise<Match[]> {
  if (ctx.lower.length < CONTAINS_MIN) return Promise.resolve([]);
  return rows(
    ctx,
    (params) =>
      searchCondition(ctx.resource, `$${params.push(`%${escapeLike(ctx.lower)}%`)}`, resourceLiteral(ctx.resource)),
    2,
    ctx.limit * 4,
  );
}

/** Records whose field holds the query anywhere, in any case (no index: the partners and carriers are few). */
function byContains(ctx: KindContext, field: string): Promise<Match[]> {
  if (ctx.lower.length < CONTAINS_MIN) return Promise.resolve([]);
  return rows(
    ctx,
    (params) => `lower(doc->>'${field}') LIKE $${params.push(`%${escapeLike(ctx.lower)}%`)}`,
    2,
    ctx.limit * 4,
  );
}

/** Service points whose address holds the query anywhere, in any case (its trigram index, migration 054). */
function byAddress(ctx: KindContext): Promise<Match[]> {
  if (ctx.lower.length < CONTAINS_MIN) return Promise.resolve([]);
  return rows(
    ctx,
    (params) =>
      `records.key IN (SELECT t.key FROM record_search_texts t WHERE t.resource = 'service_points' AND t.address LIKE $${params.push(`%${escapeLike(ctx.lower)}%`)})`,
    2,
    ctx.limit * 4,
  );
}

/** Ranks each record by how closely any of `fields` matches: whole, at the start, inside. */
function ranked(matches: Match[][], lower: string, fields: string[]): Match[] {
  const byKey = new Map<string, Match>();
  for (const match of matches.flat()) {
    const values = fields.map((field) => String(match.doc[field] ?? '').toLowerCase());
    const rank = Math.min(
      match.rank,
      values.some((value) => value === lower) ? 0 : values.some((value) => value.startsWith(lower)) ? 1 : 2,
    );
    const known = byKey.get(match.key);
    if (!known || rank < known.rank) byKey.set(match.key, { ...match, rank });
  }
  return [...byKey.values()].sort((a, b) => a.rank - b.rank);
}

/** The countries of the network (`common.schema.json` countryCode): a national number may be of any of them. */
const NETWORK_COUNTRIES: string[] = (() => {
  const common = loadSchemas().find((schema) => schema.$id === 'common') as
    { $defs?: { countryCode?: { enum?: string[] } } } | undefined;
  return common?.$defs?.countryCode?.enum ?? [];
})();

/**
 * A typed phone in E.164, each way it may be read: with its prefix (`+48`, `0048`) it is one number; in
 * national form it is read in the request's country (the tool's configured one) and in each country of
 * the network, since a desk takes calls from end users of every country it serves. Empty: no phone.
 */
export function phoneCandidates(typed: string, country: string): string[] {
  const found = [country, ...NETWORK_COUNTRIES]
    .map((candidate) => searchablePhone(typed, candidate))
    .filter((phone): phone is string => phone !== undefined);
  return [...new Set(found)];
}

const PICKUP_TOKENS = new Set(['end_user_pickup', 'courier_pickup', 'not_sent']);

const KINDS: KindSearch[] = [
  {
    kind: 'pieces',
    endpoint: 'shipments',
    fields: ['piece_barcode', 'state', 'service_point_name', 'pickup_code'],
    async find(ctx) {
      // A piece id and a barcode are found by their start once it has the characters the list's prefix
      // filter asks for (`x-filter.prefix`); a six-digit pickup code by the copy of the pieces' token
      // codes (migration 048: a B-tree the planner can estimate, where a jsonb containment read every piece).
      const min = (field: string) => ctx.resource.fieldsBySource.get(field)?.filter?.prefix ?? 4;
      const found = await Promise.all([
        byPrefix(ctx, 'piece_id', min('piece_id')),
        byPrefix(ctx, 'piece_barcode', min('piece_barcode')),
        /^\d{4,12}$/.test(ctx.text)
          ? rows(
              ctx,
              (params) => `key IN (SELECT piece_key FROM piece_token_codes WHERE code = $${params.push(ctx.text)})`,
              0,
            )
          : Promise.resolve([]),
      ]);
      const tokens = found[2]
        .map((match): Match | undefined => {
          const token = ((match.doc.tokens ?? []) as Doc[]).find(
            (candidate) => candidate.code === ctx.text && PICKUP_TOKENS.has(String(candidate.token_type)),
          );
          return token ? { ...match, doc: { ...match.doc, pickup_code: token.code } } : undefined;
        })
        .filter((match): match is Match => match !== undefined);
      return ranked([found[0], found[1], tokens], ctx.lower, ['piece_id', 'piece_barcode']);
    },
  },
  {
    kind: 'end_users',
    endpoint: 'shipments/endusers',
    fields: ['phone', 'email'],
    tab: '1',
    async find(ctx) {
      const phones = phoneCandidates(ctx.text, ctx.country);
      const e164 = phones.length > 0;
      if (!e164 && ctx.lower.length < CONTAINS_MIN) return [];
      // An end user is the caller's through its pieces: the end-user list's own rule, reused.
      const params: unknown[] = [];
      const visible = visibleEndUsersClause(ctx.access, ctx.resources, ctx.resource, params);
      if (visible === undefined) return [];
      // A phone in any national or international form, compared in E.164 as the end-user search does;
      // otherwise the start of an e-mail address. Both through the indexes of migration 044.
      const match = e164
        ? `regexp_replace(e.doc->>'phone', '[^0-9+]', '', 'g') = ANY($${params.push(phones)}::text[])`
        : `lower(e.doc->>'email') LIKE $${params.push(`${escapeLike(ctx.lower)}%`)}`;
      params.push(ctx.limit + 1);
      const found = await ctx.db.query<{ key: string; doc: Doc }>(
        `SELECT e.key, e.doc FROM records e WHERE e.resource = ${resourceLiteral(ctx.resource)} AND ${match}${visible}
         ${e164 ? 'ORDER BY (e.key)::bigint DESC ' : ''}LIMIT $${params.length}`,
        params,
      );
      return ranked([found.rows.map((row) => ({ ...row, rank: e164 ? 0 : 1 }))], ctx.lower, ['email']);
    },
  },
  {
    kind: 'service_points',
    endpoint: 'service_points',
    fields: ['sp_id', 'address', 'zip', 'city', 'status'],
    async find(ctx) {
      const found = await Promise.all([byId(ctx), bySearchText(ctx), byAddress(ctx)]);
      return ranked(found, ctx.lower, ['sp_id', 'name', 'city', 'address']);
    },
  },
  {
    kind: 'hardware_units',
    endpoint: 'service_points/hardware_units',
    fields: ['sub_id', 'model_name', 'status'],
    async find(ctx) {
      const found = await Promise.all([byId(ctx), byPrefix(ctx, 'name'), bySearchText(ctx)]);
      return ranked(found, ctx.lower, ['name', 'sub_id']);
    },
  },
  {
    kind: 'pinpads',
    endpoint: 'service_points/pinpad',
    fields: ['pinpad_id', 'status', 'service_point_id'],
    async find(ctx) {
      const found = await Promise.all([byId(ctx), byPrefix(ctx, 'ble_chip_id'), bySearchText(ctx)]);
      return ranked(found, ctx.lower, ['ble_chip_id']);
    },
  },
  {
    kind: 'tickets',
    endpoint: 'maintenance/tickets',
    fields: ['sp_name', 'status', 'ticket_type'],
    async find(ctx) {
      return ranked([await byId(ctx)], ctx.lower, []);
    },
  },
  {
    kind: 'couriers',
    endpoint: 'couriers',
    fields: ['phone', 'carrier_id', 'active'],
    async find(ctx) {
      return ranked([await byPrefix(ctx, 'code')], ctx.lower, ['code']);
    },
  },
  {
    kind: 'carriers',
    endpoint: 'partners/carrier',
    fields: ['primary_country_code', 'active'],
    async find(ctx) {
      return ranked([await byContains(ctx, 'name'), await byPrefix(ctx, 'name')], ctx.lower, ['name']);
    },
  },
];

/** Partners of every other type, one group: by name, each item naming its type. */
const PARTNER_FIELDS = ['partner_type', 'city', 'active'];

function routeOf(resource: ResourceDefinition, id: unknown, tab?: string) {
  return `/${resource.name}/${encodeURIComponent(String(id))}${tab ? `/${tab}` : ''}`;
}

function itemOf(resource: ResourceDefinition, doc: Doc, fields: string[], tab?: string): SearchItem {
  const id = doc[resource.id] as string | number;
  const shown: Record<string, unknown> = {};
  for (const field of fields) {
    const value = doc[field];
    if (value !== undefined && value !== null && value !== '') shown[field] = value;
  }
  return {
    id,
    resource: resource.name,
    label: String(doc[resource.representation] ?? id),
    fields: shown,
    route: routeOf(resource, id, tab),
  };
}

/** The scope of a resource for the caller, or undefined when the caller may not list it. */
function listScope(access: CallerAccess, resource: ResourceDefinition): Exclude<Scope, 'none'> | undefined {
  try {
    assertResourceAccess(access, resource, 'read');
  } catch (error) {
    if (error instanceof HttpError && error.status === 403) return undefined;
    throw error;
  }
  const scope = scopeFor(access, resource);
  return scope === 'none' ? undefined : scope;
}

/** The kinds the caller may search: those whose list it may read. */
export function searchableKinds(
  access: CallerAccess,
  resources: ReadonlyMap<string, ResourceDefinition>,
): SearchKind[] {
  const kinds = new Set<SearchKind>();
  for (const search of KINDS) {
    const resource = resources.get(search.endpoint);
    if (resource && listScope(access, resource)) kinds.add(search.kind);
  }
  if (PARTNER_ENDPOINTS.some((endpoint) => resources.get(endpoint) && listScope(access, resources.get(endpoint)!))) {
    kinds.add('partners');
  }
  const users = resources.get('identity_access/users');
  if (users && listScope(access, users)) kinds.add('webtool_users');
  return SEARCH_KINDS.filter((kind) => kinds.has(kind));
}

async function partnerGroup(
  db: Db,
  access: CallerAccess,
  resources: ReadonlyMap<string, ResourceDefinition>,
  base: Omit<KindContext, 'resource' | 'scope' | 'resources'>,
): Promise<SearchGroup | undefined> {
  const items: (SearchItem & { rank: number })[] = [];
  let searched = false;
  for (const endpoint of PARTNER_ENDPOINTS) {
    const resource = resources.get(endpoint);
    const scope = resource && listScope(access, resource);
    if (!resource || !scope) continue;
    searched = true;
    const ctx = { ...base, db, access, resources, resource, scope };
    const found = ranked([await byContains(ctx, 'name'), await byPrefix(ctx, 'name')], ctx.lower, ['name']);
    const type = endpoint.slice('partners/'.length);
    for (const match of found) {
      const doc = { ...readableDoc(access, resource, match.doc), partner_type: type };
      items.push({ ...itemOf(resource, doc, PARTNER_FIELDS), rank: match.rank });
    }
  }
  if (!searched) return undefined;
  items.sort((a, b) => a.rank - b.rank || a.label.localeCompare(b.label));
  return {
    kind: 'partners',
    items: items.slice(0, base.limit).map(({ rank: _rank, ...item }) => item),
    more: items.length > base.limit,
  };
}

/** Webtool users by username, name or e-mail: those the users list shows the caller (its own partner's, or all). */
async function userGroup(
  db: Db,
  access: CallerAccess,
  resources: ReadonlyMap<string, ResourceDefinition>,
  lower: string,
  limit: number,
): Promise<SearchGroup | undefined> {
  const resource = resources.get('identity_access/users');
  if (!resource || !listScope(access, resource)) return undefined;
  if (lower.length < 2) return { kind: 'webtool_users', items: [], more: false };
  const nameOf = await partnerNames(db);
  const fields = ['username', 'name', 'email'] as const;
  const matching = (await allUsers(db))
    .filter((user) => ownsPartner(access, user.partner_type, user.partner))
    .map((user) => {
      const values = fields.map((field) => String(user[field] ?? '').toLowerCase());
      const rank = values.some((value) => value === lower)
        ? 0
        : values.some((value) => value.startsWith(lower))
          ? 1
          : values.some((value) => value.includes(lower))
            ? 2
            : undefined;
      return { user, rank };
    })
    .filter((entry): entry is { user: (typeof entry)['user']; rank: number } => entry.rank !== undefined)
    .sort((a, b) => a.rank - b.rank || a.user.username.localeCompare(b.user.username));
  return {
    kind: 'webtool_users',
    items: matching
      .slice(0, limit)
      .map(({ user }) =>
        itemOf(resource, { ...user, partner_name: nameOf(user.partner_type, user.partner) } as Doc, [
          'email',
          'partner_name',
          'role_name',
        ]),
      ),
    more: matching.length > limit,
  };
}

export function searchRoutes(resources: ReadonlyMap<string, ResourceDefinition>): Record<string, SpecialRoute> {
  return {
    'GET search': async ({ request, access, db }): Promise<SearchResponse> => {
      const query = request.query as Record<string, unknown>;
      const text = (single(query.q) ?? '').trim();
      if (!text) throw keyedError(400, 'gateway.search_query_empty');
      if (text.length > SEARCH_MAX_LENGTH)
        throw keyedError(400, 'gateway.search_query_too_long', { max: SEARCH_MAX_LENGTH });
      const limit = nonNegativeInt(single(query.limit), 'limit', DEFAULT_LIMIT);
      if (limit < 1 || limit > SEARCH_MAX_LIMIT)
        throw keyedError(400, 'gateway.limit_range', { max: SEARCH_MAX_LIMIT });
      const countryText = single(query.country)?.toUpperCase() || DEFAULT_COUNTRY;
      if (!/^[A-Z]{2}$/.test(countryText)) throw keyedError(400, 'gateway.param_required', { name: 'country' });
      const kinds = searchableKinds(access, resources);
      if (!kinds.length) throw keyedError(403, 'gateway.search_nothing_searchable');

      const base = { db, access, text, lower: text.toLowerCase(), limit, country: countryText };
      const groups: SearchGroup[] = [];
      for (const search of KINDS) {
        const resource = resources.get(search.endpoint);
        const scope = resource && listScope(access, resource);
        if (!resource || !scope) continue;
        const found = await search.find({ ...base, resources, resource, scope });
        groups.push({
          kind: search.kind,
          items: found
            .slice(0, limit)
            .map((match) => itemOf(resource, readableDoc(access, resource, match.doc), search.fields, search.tab)),
          more: found.length > limit,
        });
      }
      const partners = await partnerGroup(db, access, resources, base);
      if (partners) groups.push(partners);
      const users = await userGroup(db, access, resources, base.lower, limit);
      if (users) groups.push(users);
      groups.sort((a, b) => SEARCH_KINDS.indexOf(a.kind) - SEARCH_KINDS.indexOf(b.kind));
      return { success: true, query: text, searched: kinds, groups: groups.filter((group) => group.items.length) };
    },
  };
}
