import type { LocationProposal } from '../../../../src/types/generated/location-proposal.ts';
import type { ServicePoint } from '../../../../src/types/generated/service-point.ts';
import { ProposalStatus } from '../../../../src/types/generated/codes.ts';
import { PHOTO_MESSAGES } from '../../../../src/schema/photo-upload.ts';
import { keyedError } from '../../http-error.ts';
import { recordRules } from '../../resource-rules.ts';
import { refusedFields } from '../../write-pipeline.ts';
import { servicePointAddressQueries, validatedAddress } from '../service-points/service-point-address.ts';
import { photoHandlers } from '../service-points/service-point-photos.ts';
import { LOCATIONS } from '../shared/endpoints.ts';
export { CONTACTS, LOCATIONS, PROPOSALS } from '../shared/endpoints.ts';

/** Spec 02 §5 and §9: a proposal's pictures are at most 1 MB each (5 at most, as a service point's). */
export const PROPOSAL_PICTURE_MAX_BYTES = 1024 * 1024;

/** 'Image too large or too many' (spec 02 §8), for a sixth picture and a picture over 1 MB alike. */
const pictureRefusal = (messageKey: string) =>
  messageKey === PHOTO_MESSAGES.invalidFormat
    ? keyedError(422, 'catalogue.invalid_photo_format', undefined, { errors: { photos: { message: messageKey } } })
    : keyedError(422, 'catalogue.image_too_large_or_many', undefined, {
        errors: { photos: { message: 'catalogue.image_too_large_or_many' } },
      });

const pictures = photoHandlers({ maxBytes: PROPOSAL_PICTURE_MAX_BYTES, refusal: pictureRefusal });

/** Statuses past Open that say the spot is good: they need its pictures and a validated place. */
const DECIDED = new Set<number>([ProposalStatus.Approved, ProposalStatus.Ready]);

/**
 * A location's proposal (spec 02 §5): it belongs to an existing location; its hardware models are
 * not repeated (their count within `max_capacity`, 1-7, is the schema's); its earliest installation
 * date is not after the deadline (the schema's `x-not-before`); an address, once given, is one of
 * the address index with coordinates picked on the map. Approving it (or marking it Ready) needs at
 * least one picture and a validated address. A proposal made a service point reads only.
 */
export const proposalRules = recordRules<LocationProposal>({
  async beforeWrite({ tx, input }, doc, existing) {
    if (existing?.doc.used) throw keyedError(409, 'catalogue.proposal_used');
    const location = await tx.query(`SELECT 1 FROM records WHERE resource = $1 AND key = $2`, [
      LOCATIONS,
      String(doc.location_id),
    ]);
    if (!location.rows.length) throw refusedFields({ location_id: { message: 'validation.unknown_reference' } });
    const models = doc.hardware_models ?? [];
    if (new Set(models).size !== models.length) {
      throw refusedFields({ hardware_models: { message: 'validation.duplicate_hardware_model' } });
    }
    if (existing?.doc.location_id !== undefined && existing.doc.location_id !== doc.location_id) {
      throw refusedFields({ location_id: { message: 'validation.proposal_moves' } });
    }
    const decided = DECIDED.has(doc.status ?? ProposalStatus.Open);
    if (decided && !(doc.photos ?? []).length) {
      throw refusedFields({ photos: { message: 'validation.picture_required' } });
    }
    if (decided || doc.address?.trim()) {
      // The service point's own check: the same index, messages and coordinates rule.
      await validatedAddress(
        tx,
        input ?? {},
        doc as unknown as ServicePoint,
        existing?.doc as unknown as ServicePoint | undefined,
      );
    }
    return doc;
  },
  async beforeDelete(_ctx, existing) {
    if (existing.doc.used) throw keyedError(409, 'catalogue.proposal_used');
  },
  put: pictures.put,
  removals: pictures.removals,
  queries: { ...servicePointAddressQueries },
});
