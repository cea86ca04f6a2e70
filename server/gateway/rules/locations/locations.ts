import type { Location } from '../../../../src/types/generated/location.ts';
import type { LocationProposal } from '../../../../src/types/generated/location-proposal.ts';
import { ProposalStatus } from '../../../../src/types/generated/codes.ts';
import { assertResourceAccess } from '../../caller-access.ts';
import { bulkImport, storedNamesAndPlaces } from '../../bulk-import.ts';
import { keyedError } from '../../http-error.ts';
import type { Doc } from '../../record-store.ts';
import { recordRules, type OpnameContext } from '../../resource-rules.ts';
import { actorOf, commitChange, refusedFields, visibleRecord } from '../../write-pipeline.ts';
import type { StoredRecord } from '../../record-writes.ts';
import { removeRecordUploads } from '../../uploads.ts';
import { HARDWARE_MODELS } from '../shared/hardware-store.ts';
import { CONTACTS, LOCATIONS, PROPOSALS } from './location-proposals.ts';
import { locationPdfName, renderLocationSheet } from './location-pdf.ts';
import { languageOf } from '../shared/pdf-sheet.ts';
import { assertLocationMunicipality } from '../shared/municipalities.ts';
import type { LocationContact } from '../../../../src/types/generated/location-contact.ts';
import type { IncomingHttpHeaders } from 'node:http';
import { inStore, LISTS, LOCATION_OWNERS, SERVICE_POINTS } from '../shared/endpoints.ts';
import { existsDoc, readDoc } from '../shared/docs.ts';
import { optionalVersion } from '../shared/values.ts';
import { bodyParams, queryParams, SOME_VALUE } from '../shared/params.ts';

/** Spec 02 §4: Approved, the status a service point made from an approved proposal starts in. */
const SERVICE_POINT_APPROVED = 3;
const SERVICE_POINT_ARCHIVED = 0;

const proposalParams = bodyParams({
  proposal_id: {
    schema: SOME_VALUE,
    refusal: ['gateway.param_required', { name: 'proposal_id' }],
    then: [
      {
        schema: {
          anyOf: [
            { type: 'integer', minimum: 0 },
            { type: 'string', pattern: '^\\d+$' },
          ],
        },
        refusal: ['gateway.single_value', { name: 'proposal_id' }],
      },
    ],
  },
});
const exportParams = queryParams({
  location_id: {
    schema: { type: 'string', pattern: '^\\d+$' },
    refusal: ['gateway.param_required', { name: 'location_id' }],
  },
});

const proposalIdOf = (body: Doc) => String(proposalParams(body).proposal_id);

const proposalsResource = (ctx: OpnameContext) => {
  const resource = ctx.resources.get(PROPOSALS);
  if (!resource) throw new Error('The location proposals resource is missing');
  return resource;
};

/**
 * `POST webtool/locations` `{ opname: "create_as_service_point", proposal_id }` (spec 02 §4, §7): an
 * Approved proposal becomes a service point, Approved, at the proposal's validated address and
 * coordinates, with its hardware plan (the models and the capacity as the most units), the location's
 * type and owner; the proposal is marked used and names the service point. Both in one transaction,
 * each through its own rules and audit trail: a refusal of either writes nothing.
 */
async function createAsServicePoint(ctx: OpnameContext, body: Doc) {
  const proposalKey = proposalIdOf(body);
  const servicePoints = ctx.writesFor(SERVICE_POINTS);
  const spResource = ctx.resources.get(SERVICE_POINTS)!;
  assertResourceAccess(ctx.access, spResource, 'create');
  const proposalWrites = ctx.writesFor(PROPOSALS);
  let servicePointId: unknown;
  const proposal = await proposalWrites.change(proposalKey, async (tx, existing) => {
    const doc = existing.doc as unknown as LocationProposal;
    if (doc.used) throw keyedError(409, 'catalogue.proposal_used');
    if (doc.status !== ProposalStatus.Approved) throw keyedError(409, 'catalogue.proposal_not_approved');
    const location = await visibleRecord(tx, ctx.access, ctx.resource, String(doc.location_id));
    const place = location.doc as unknown as Location;
    const models = await tx.query<{ name: string }>(
      `SELECT doc->>'name' AS name FROM records WHERE resource = $1 AND key = ANY($2::text[])`,
      [HARDWARE_MODELS, (doc.hardware_models ?? []).map(String)],
    );
    const servicePoint = await servicePoints.createWithin(tx, {
      name: doc.name,
      location_name: place.name,
      status: SERVICE_POINT_APPROVED,
      country: doc.country,
      address: doc.address,
      address_id: doc.address_id,
      zip: doc.zip,
      city: doc.city,
      municipality: doc.municipality,
      latitude: doc.latitude,
      longitude: doc.longitude,
      location_type_id: place.location_type_id,
      location_owner_id: place.location_owner_id,
      foundation_id: doc.foundation_id,
      max_hardware_units: doc.max_capacity,
      hardware_models: models.rows.map((row) => row.name),
      description: doc.location_description,
    });
    servicePointId = servicePoint.service_point_id;
    return { ...doc, used: true, service_point_id: servicePointId };
  });
  return { success: true, data: { service_point_id: servicePointId, proposal } };
}

/**
 * `PATCH webtool/locations` `{ opname: "update_latlng", proposal_id, latitude, longitude, version? }`: the
 * proposal's coordinates as picked on the map ('Please select coordinates on the map' without both).
 */
async function updateLatLng(ctx: OpnameContext, body: Doc) {
  const proposalKey = proposalIdOf(body);
  const { latitude, longitude } = body;
  const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
  if (!isNumber(latitude) || !isNumber(longitude)) {
    throw keyedError(422, 'catalogue.select_coordinates', undefined, {
      errors: { latitude: { message: 'catalogue.select_coordinates' } },
    });
  }
  const version = optionalVersion(body);
  // The proposals' own path decides who sees and changes the proposal.
  await visibleRecord(ctx.db, ctx.access, proposalsResource(ctx), proposalKey);
  const data = await ctx
    .writesFor(PROPOSALS)
    .change(proposalKey, async (_tx, existing) => ({ ...existing.doc, latitude, longitude }), version);
  return { success: true, data };
}

const listName = async (ctx: OpnameContext, type: string, id: unknown) =>
  id === undefined
    ? undefined
    : (
        await ctx.db.query<{ name: string }>(
          `SELECT doc->>'column_name' AS name FROM records WHERE ${inStore(LISTS)} AND key = $1`,
          [`${type}:${String(id)}`],
        )
      ).rows[0]?.name;

/**
 * `GET webtool/locations?opname=export&location_id=`: the location export the print page reads (spec 01
 * §3, §2.5): the basic data with the names of what it refers to, its proposals (pictures, coordinates,
 * hardware, foundation) and its contacts, each naming its proposal by `temp_id`.
 */
async function locationExport(ctx: OpnameContext, query: Record<string, string>) {
  const key = exportParams(query).location_id;
  const location = (await visibleRecord(ctx.db, ctx.access, ctx.resource, key)).doc as unknown as Location;
  const children = async (endpoint: string) =>
    (
      await ctx.db.query<{ doc: Doc }>(
        `SELECT doc FROM records WHERE resource = $1 AND doc->>'location_id' = $2 ORDER BY (key)::int`,
        [endpoint, key],
      )
    ).rows.map((row) => row.doc);
  const proposals = (await children(PROPOSALS)) as unknown as LocationProposal[];
  const contacts = await children(CONTACTS);
  const owner = await readDoc<{ name: string }>(ctx.db, LOCATION_OWNERS, location.location_owner_id ?? '');
  const municipality = await ctx.db.query<{ name: string }>(
    'SELECT municipality_name AS name FROM addresses WHERE municipality_id = $1 LIMIT 1',
    [location.municipality_id ?? -1],
  );
  const modelIds = [...new Set(proposals.flatMap((proposal) => proposal.hardware_models ?? []))].map(String);
  const modelNames = new Map(
    (
      await ctx.db.query<{ key: string; name: string }>(
        `SELECT key, doc->>'name' AS name FROM records WHERE resource = $1 AND key = ANY($2::text[])`,
        [HARDWARE_MODELS, modelIds],
      )
    ).rows.map((row) => [row.key, row.name]),
  );
  return {
    success: true,
    data: {
      location_id: location.location_id,
      basic: {
        name: location.name,
        address_1: location.address_1,
        location_owner_id: location.location_owner_id,
        location_owner_name: owner?.name,
        municipality_id: location.municipality_id,
        municipality_name: municipality.rows[0]?.name,
        location_type_id: location.location_type_id,
        location_type_name: await listName(ctx, 'location_types', location.location_type_id),
        is_rural: location.is_rural ?? false,
      },
      proposals: await Promise.all(
        proposals.map(async (proposal) => ({
          proposal_id: proposal.proposal_id,
          temp_id: String(proposal.proposal_id),
          name: proposal.name,
          status: proposal.status,
          address: [proposal.address, [proposal.zip, proposal.city].filter(Boolean).join(' ')]
            .filter(Boolean)
            .join(', '),
          location_description: proposal.location_description,
          hardware_units: proposal.hardware_models.length,
          hardware_model_id: proposal.hardware_models[0],
          hardware_model_name: proposal.hardware_models.map((id) => modelNames.get(String(id)) ?? '').join(', '),
          position: proposal.position,
          foundation_id:
            proposal.foundation_id === undefined
              ? []
              : [{ column_name: await listName(ctx, 'foundations', proposal.foundation_id) }],
          latitude: proposal.latitude,
          longitude: proposal.longitude,
          imageFiles: (proposal.photos ?? []).map((photo) => ({ url: photo.url })),
        })),
      ),
      contacts: contacts.map((contact) => ({
        name: contact.name,
        proposal_id: contact.proposal_id === undefined ? [] : [{ temp_id: String(contact.proposal_id) }],
      })),
    },
  };
}

/**
 * `GET webtool/locations?opname=get_pdf&location_id=N[&lang=]` (spec 02 §7): the location's sheet as a
 * real PDF, from the same export the print page reads plus the location's own fields and contacts;
 * base64 in JSON as the other sheets (the signed gateway client reads JSON).
 */
async function locationPdf(ctx: OpnameContext, query: Record<string, string>, headers: IncomingHttpHeaders) {
  const language = languageOf(query, headers);
  const exported = (await locationExport(ctx, query)).data;
  const key = String(exported.location_id);
  const location = (await visibleRecord(ctx.db, ctx.access, ctx.resource, key)).doc as unknown as Location;
  const records = async <T>(endpoint: string) =>
    (
      await ctx.db.query<{ doc: T }>(
        `SELECT doc FROM records WHERE resource = $1 AND doc->>'location_id' = $2 ORDER BY (key)::int`,
        [endpoint, key],
      )
    ).rows.map((row) => row.doc);
  const proposals = await records<LocationProposal>(PROPOSALS);
  const named = new Map(exported.proposals.map((proposal) => [proposal.proposal_id, proposal]));
  const bytes = await renderLocationSheet(
    {
      location,
      ownerName: exported.basic.location_owner_name,
      municipalityName: exported.basic.municipality_name,
      locationTypeName: exported.basic.location_type_name,
      proposals: proposals.map((proposal) => ({
        ...proposal,
        modelNames: named.get(proposal.proposal_id)?.hardware_model_name ?? '',
        foundationName: named.get(proposal.proposal_id)?.foundation_id[0]?.column_name,
      })),
      contacts: await records<LocationContact>(CONTACTS),
    },
    language,
  );
  return {
    success: true,
    file_name: locationPdfName(location),
    content_type: 'application/pdf',
    data: bytes.toString('base64'),
  };
}

/**
 * A location (spec 02 §5): basic data, its proposals and contacts. Deleting it is refused while a service
 * point made from one of its proposals lives (neither archived nor terminated); otherwise its proposals
 * and contacts go with it.
 */
export const locationRules = recordRules<Location>({
  async beforeWrite({ tx }, doc, existing) {
    await assertLocationMunicipality(tx, doc, existing?.doc);
    if (doc.location_owner_id !== undefined) {
      if (!(await existsDoc(tx, LOCATION_OWNERS, { key: String(doc.location_owner_id) })))
        throw refusedFields({ location_owner_id: { message: 'validation.unknown_reference' } });
    }
    return doc;
  },
  async beforeDelete({ tx, access, resources }, existing) {
    const live = await tx.query(
      `SELECT 1 FROM records p JOIN records s ON s.resource = $1 AND s.key = p.doc->>'service_point_id'
       WHERE p.resource = $2 AND p.doc->>'location_id' = $3
         AND coalesce(s.doc->>'is_terminated', 'false') <> 'true' AND s.doc->>'status' <> $4 LIMIT 1`,
      [SERVICE_POINTS, PROPOSALS, existing.key, String(SERVICE_POINT_ARCHIVED)],
    );
    if (live.rows.length) throw keyedError(409, 'catalogue.location_active_service_point');
    // Its contacts and proposals go with it, each audited, the proposals' pictures with them.
    for (const endpoint of [CONTACTS, PROPOSALS]) {
      const resource = resources.get(endpoint)!;
      const children = await tx.query<StoredRecord>(
        `SELECT key, doc, version FROM records WHERE resource = $1 AND doc->>'location_id' = $2`,
        [endpoint, existing.key],
      );
      for (const child of children.rows) {
        await removeRecordUploads(tx, resource, child.key);
        await commitChange(tx, actorOf(access), resource, { action: 'delete', existing: child });
      }
    }
  },
  opnames: {
    create_as_service_point: createAsServicePoint,
    // Spec 02 §5: the schema's limits row by row, names and coordinates repeated in the file or held by a
    // stored location flagged; one bad row and nothing is written.
    bulk_import: bulkImport({ hooks: storedNamesAndPlaces(LOCATIONS) }),
  },
  patchOpnames: { update_latlng: updateLatLng },
  queries: { export: locationExport, get_pdf: locationPdf },
});
