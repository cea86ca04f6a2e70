import type { Location } from '../../../src/types/generated/location.ts';
import type { LocationProposal } from '../../../src/types/generated/location-proposal.ts';
import { ProposalStatus } from '../../../src/types/generated/codes.ts';
import { assertResourceAccess } from '../caller-access.ts';
import { badRequest, keyedError } from '../http-error.ts';
import type { Doc } from '../record-store.ts';
import { recordRules, type OpnameContext } from '../resource-rules.ts';
import { actorOf, commitChange, refusedFields, visibleRecord } from '../write-pipeline.ts';
import type { StoredRecord } from '../record-writes.ts';
import { removeRecordUploads } from '../uploads.ts';
import { HARDWARE_MODELS } from './hardware-store.ts';
import { CONTACTS, PROPOSALS } from './location-proposals.ts';

const SERVICE_POINTS = 'service_points';
/** Spec 02 §4: Approved, the status a service point made from an approved proposal starts in. */
const SERVICE_POINT_APPROVED = 3;
const SERVICE_POINT_ARCHIVED = 0;

function proposalIdOf(body: Doc) {
  const raw = body.proposal_id;
  if (raw === undefined || raw === null || raw === '')
    throw badRequest('gateway.param_required', { name: 'proposal_id' });
  if (!/^\d+$/.test(String(raw))) throw badRequest('gateway.single_value', { name: 'proposal_id' });
  return String(raw);
}

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
  const version = body.version;
  if (version !== undefined && (typeof version !== 'number' || !Number.isInteger(version))) {
    throw badRequest('gateway.version_required');
  }
  // The proposals' own path decides who sees and changes the proposal.
  await visibleRecord(ctx.db, ctx.access, proposalsResource(ctx), proposalKey);
  const data = await ctx
    .writesFor(PROPOSALS)
    .change(proposalKey, async (_tx, existing) => ({ ...existing.doc, latitude, longitude }), version);
  return { success: true, data };
}

/**
 * A location (spec 02 §5): basic data, its proposals and contacts. Deleting it is refused while a service
 * point made from one of its proposals lives (neither archived nor terminated); otherwise its proposals
 * and contacts go with it.
 */
export const locationRules = recordRules<Location>({
  async beforeWrite({ tx }, doc) {
    if (doc.location_owner_id !== undefined) {
      const owner = await tx.query(`SELECT 1 FROM records WHERE resource = 'partners/location_owner' AND key = $1`, [
        String(doc.location_owner_id),
      ]);
      if (!owner.rows.length) throw refusedFields({ location_owner_id: { message: 'validation.unknown_reference' } });
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
  opnames: { create_as_service_point: createAsServicePoint },
  patchOpnames: { update_latlng: updateLatLng },
});
