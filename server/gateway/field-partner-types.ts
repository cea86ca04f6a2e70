import type { Doc } from './record-store.ts';
import type { CallerAccess } from './caller-access.ts';
import { keyedError, type MessageKey } from './http-error.ts';
import type { ResourceDefinition } from './resource-registry.ts';

/** Null, undefined, blank text and an empty list are one value: "nothing". */
const blank = (value: unknown) =>
  value === undefined ||
  value === null ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

const sameValue = (a: unknown, b: unknown) => (blank(a) && blank(b)) || JSON.stringify(a) === JSON.stringify(b);

/**
 * The schema's per-field partner types (`x-input.partnerTypes`, issue 25.4), enforced for every resource by the write
 * pipeline: a change of such a field by a caller of another partner type is refused (422 on the field, the catalogue
 * message of `x-input.partnerRefusal` or the generic one), whatever path of the pipeline writes it. "A change" is a
 * value other than the stored one, or on a new record other than the field's default. Super admins pass, as the form
 * shows them every input.
 */
export function assertPartnerFields(
  access: CallerAccess,
  resource: ResourceDefinition,
  doc: Doc,
  before: Doc | undefined,
): void {
  if (access.superAdmin) return;
  for (const field of resource.fields) {
    const allowed = field.input.partnerTypes;
    if (!allowed || allowed.includes(access.partnerType)) continue;
    const was = before ? before[field.source] : field.defaultValue;
    if (sameValue(doc[field.source], was)) continue;
    const key = (field.input.partnerRefusal ?? 'gateway.field_partner_type') as MessageKey;
    throw keyedError(422, key, undefined, { errors: { [field.source]: { message: key } } });
  }
}
