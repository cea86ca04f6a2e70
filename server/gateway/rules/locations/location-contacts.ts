import type { LocationContact } from '../../../../src/types/generated/location-contact.ts';
import { keyedError } from '../../http-error.ts';
import { recordRules } from '../../resource-rules.ts';
import { refusedFields } from '../../write-pipeline.ts';
import { CONTACTS, LOCATIONS, PROPOSALS } from './location-proposals.ts';

const digits = (phone: string) => phone.replace(/\D/g, '');

/**
 * A location's contact person (spec 02 §5, §8): one contact per phone number within a location ('Contact
 * person already exists with this number'), and a proposal of the same location has one contact at most
 * ('Selected proposal already has a contact').
 */
export const contactRules = recordRules<LocationContact>({
  async beforeWrite({ tx }, doc, existing) {
    const location = await tx.query(`SELECT 1 FROM records WHERE resource = $1 AND key = $2`, [
      LOCATIONS,
      String(doc.location_id),
    ]);
    if (!location.rows.length) throw refusedFields({ location_id: { message: 'validation.unknown_reference' } });
    const others = await tx.query<{ phone: string | null; proposal_id: string | null }>(
      `SELECT doc->>'phone' AS phone, doc->>'proposal_id' AS proposal_id FROM records
       WHERE resource = $1 AND doc->>'location_id' = $2 AND key <> $3`,
      [CONTACTS, String(doc.location_id), existing?.key ?? ''],
    );
    if (others.rows.some((row) => row.phone && digits(row.phone) === digits(doc.phone))) {
      throw keyedError(422, 'catalogue.contact_phone_exists', undefined, {
        errors: { phone: { message: 'catalogue.contact_phone_exists' } },
      });
    }
    if (doc.proposal_id !== undefined) {
      const proposal = await tx.query(
        `SELECT 1 FROM records WHERE resource = $1 AND key = $2 AND doc->>'location_id' = $3`,
        [PROPOSALS, String(doc.proposal_id), String(doc.location_id)],
      );
      if (!proposal.rows.length) throw refusedFields({ proposal_id: { message: 'validation.unknown_reference' } });
      if (others.rows.some((row) => row.proposal_id === String(doc.proposal_id))) {
        throw keyedError(422, 'catalogue.proposal_has_contact', undefined, {
          errors: { proposal_id: { message: 'catalogue.proposal_has_contact' } },
        });
      }
    }
    return doc;
  },
});
