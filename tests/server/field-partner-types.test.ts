import { describe, expect, it } from 'vitest';
import type { CallerAccess } from '../../server/gateway/caller-access.ts';
import { assertPartnerFields } from '../../server/gateway/field-partner-types.ts';
import { HttpError } from '../../server/gateway/http-error.ts';
import { loadResources } from '../../server/gateway/resource-registry.ts';

const resources = loadResources();
const tickets = resources.get('maintenance/tickets')!;
const caller = (partnerType: string, superAdmin = false) =>
  ({ partnerType, superAdmin, seesAll: superAdmin || partnerType === 'operator' }) as CallerAccess;

function refusal(run: () => void) {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, ...error.details };
    throw error;
  }
  return undefined;
}

describe("the schema's per-field partner types, enforced by the write pipeline (issue 25.4)", () => {
  it('refuses a change of a field the schema gives to other partner types, with its catalogue message', () => {
    const stored = { ticket_id: 1, warranty_status: 2, warranty_comment: 'Old', ticket_verification_status: 3 };
    expect(
      refusal(() =>
        assertPartnerFields(caller('maintenance_provider'), tickets, { ...stored, warranty_status: 1 }, stored),
      ),
    ).toMatchObject({
      status: 422,
      message_key: 'catalogue.ticket_warranty_operator',
      errors: { warranty_status: { message: 'catalogue.ticket_warranty_operator' } },
    });
    expect(
      refusal(() =>
        assertPartnerFields(
          caller('maintenance_provider'),
          tickets,
          { ...stored, ticket_verification_status: 1 },
          stored,
        ),
      ),
    ).toMatchObject({ message_key: 'catalogue.ticket_verification_by_provider' });
    // A new record: a value other than the field's default is a change too.
    expect(
      refusal(() =>
        assertPartnerFields(caller('maintenance_provider'), tickets, { ticket_verification_status: 2 }, undefined),
      ),
    ).toMatchObject({ status: 422 });
  });

  it('lets the named partner types and super admins change it, and anyone leave it as it was', () => {
    const stored = { ticket_id: 1, warranty_status: 2, warranty_comment: '', ticket_verification_status: 3 };
    const changed = { ...stored, warranty_status: 1, warranty_comment: 'New' };
    expect(refusal(() => assertPartnerFields(caller('operator'), tickets, changed, stored))).toBeUndefined();
    expect(
      refusal(() => assertPartnerFields(caller('maintenance_provider', true), tickets, changed, stored)),
    ).toBeUndefined();
    expect(
      refusal(() =>
        assertPartnerFields(caller('support_provider'), tickets, { ...stored, ticket_verification_status: 1 }, stored),
      ),
    ).toBeUndefined();
    // Blank text and null are the same "nothing"; an untouched record passes for everyone.
    expect(
      refusal(() =>
        assertPartnerFields(caller('maintenance_provider'), tickets, { ...stored, warranty_comment: null }, stored),
      ),
    ).toBeUndefined();
    expect(
      refusal(() =>
        assertPartnerFields(
          caller('maintenance_provider'),
          tickets,
          { ticket_id: 2, ticket_verification_status: 0 },
          undefined,
        ),
      ),
    ).toBeUndefined();
  });

  it('has a message in both languages for every refusal a schema names', async () => {
    const en = (await import('../../locales/en-US.json', { with: { type: 'json' } })).default as Record<
      string,
      unknown
    >;
    const fr = (await import('../../locales/fr-FR.json', { with: { type: 'json' } })).default as Record<
      string,
      unknown
    >;
    const read = (locale: Record<string, unknown>, key: string) =>
      key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], locale);
    const keys = [...resources.values()].flatMap((resource) =>
      resource.fields.flatMap((field) =>
        field.input.partnerTypes ? [field.input.partnerRefusal ?? 'gateway.field_partner_type'] : [],
      ),
    );
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(typeof read(en, key), key).toBe('string');
      expect(typeof read(fr, key), key).toBe('string');
    }
  });
});
