import { describe, expect, it } from 'vitest';
import en from '../../locales/en-US.json';
import fr from '../../locales/fr-FR.json';

function keys(node: unknown, prefix = ''): string[] {
  if (!node || typeof node !== 'object') return [prefix];
  return Object.entries(node).flatMap(([key, value]) => keys(value, prefix ? `${prefix}.${key}` : key));
}

describe('locales', () => {
  it('en-US and fr-FR have exactly the same keys', () => {
    expect(keys(fr).sort()).toEqual(keys(en).sort());
  });

  it('keep the same interpolation variables in both languages', () => {
    const variables = (text: string) => (text.match(/%\{\w+\}/g) ?? []).sort();
    const lookup = (root: unknown, key: string) =>
      key.split('.').reduce<unknown>((n, k) => (n as Record<string, unknown>)[k], root);
    for (const key of keys(en)) {
      expect(variables(String(lookup(fr, key))), key).toEqual(variables(String(lookup(en, key))));
    }
  });

  it('have no empty message', () => {
    for (const key of [...keys(en)]) {
      const value = key.split('.').reduce<unknown>((n, k) => (n as Record<string, unknown>)[k], en);
      expect(String(value).trim(), key).not.toBe('');
    }
  });
});

/** Messages that read the same in both languages on purpose: names, codes, words French shares. */
const SAME_IN_BOTH = new Set([
  // The location generator's words that French spells the same.
  'location_generator.zones',
  'location_generator.zone',
  'location_generator.score',
  'location_generator.population',
  'location_generator.conversion',
  // A currency's name is the same word in both languages.
  'choices.currency.EUR',
  // A webhook delivery's duration, '120 ms' in both.
  'webhooks.log.duration_ms',
  'app.languages.en-US',
  'app.languages.fr-FR',
  'auth.footer',
  'form.text_in_language',
  'nested.row_actions',
  'resources.service-points.fields.service_point_id',
  'resources.service-point-groups.fields.service_point_group_id',
  'resources.carriers.fields.carrier_id',
  'resources.couriers.fields.courier_id',
  'resources.hardware.fields.hardware_id',
  'resources.hardware.fields.license_status',
  'resources.pinpad.fields.pinpad_id',
  'resources.operators.fields.operator_id',
  'resources.alerts.fields.ticket_id',
  'choices.alert_record_type.ticket',
  'choices.hardware_status.4',
  'hardware.grid.fields.position',
  'hardware.grid.column_caption',
  'resources.service-points.fields.latitude',
  'resources.service-points.fields.longitude',
  'resources.service-points.fields.description',
  'resources.roles.fields.role_description',
  'resources.carriers.fields.logo_url',
  'resources.webtool-users.fields.email',
  'choices.notification_behaviour.email',
  'choices.notification_behaviour.sms',
  'resources.carriers.tabs.webhooks',
  'menu.webhooks',
  // Place names French writes as the country does: regions, districts, time zones named by their city.
  ...[5, 6, 7, 9, 17, 18].map((id) => `lookups.region.${id}`),
  ...Array.from({ length: 19 }, (_, index) => `lookups.sub_region.${index + 1}`),
  ...['Oslo', 'Stockholm', 'Helsinki'].map((city) => `lookups.time_zones.Europe/${city}`),
  'features.webhooks',
  'menu.notifications',
  // Notification, Message, SMS and E-mail are the same words in French (issue 28.3).
  'resources.notifications.name',
  'resources.notifications.fields.text',
  'choices.notification_channel.sms',
  'choices.notification_channel.email',
  'shipments.detail.message',
  'features.notifications',
  'menu.tickets',
  'search.kinds.tickets',
  'history.action',
  'logs.action',
  'print.contacts',
  'print.position',
  'print.rural',
  'resources.locations.fields.location_id',
  'resources.locations.fields.is_rural',
  'resources.locations.tabs.contacts',
  'resources.location-proposals.fields.proposal_id',
  'resources.location-proposals.fields.position',
  'resources.location-proposals.fields.latitude',
  'resources.location-proposals.fields.longitude',
  'resources.locations.fields.latitude',
  'resources.locations.fields.longitude',
  'resources.locations.fields.description',
  'resources.location-contacts.name',
  'resources.location-contacts.fields.contact_id',
  'resources.location-contacts.fields.email',
]);

/** English words that have no place in a French sentence (a leftover of the English text). */
const ENGLISH_WORDS = /\b(the|and|of|with|please|webtool|your|is|are|not|from|to)\b/i;

describe('the French locale', () => {
  const lookup = (root: unknown, key: string) =>
    key.split('.').reduce<unknown>((n, k) => (n as Record<string, unknown>)[k], root);

  it('translates every message, except those that read the same in French', () => {
    const untranslated = keys(en).filter((key) => !SAME_IN_BOTH.has(key) && lookup(fr, key) === lookup(en, key));
    expect(untranslated).toEqual([]);
  });

  it('keeps no English word in a French message', () => {
    const mixed = keys(fr)
      .filter((key) => !SAME_IN_BOTH.has(key))
      .map((key) => `${key}: ${String(lookup(fr, key))}`)
      .filter((line) => ENGLISH_WORDS.test(line.slice(line.indexOf(': ') + 2).replace(/%\{\w+\}/g, '')));
    expect(mixed).toEqual([]);
  });
});

describe('one French term per thing (issue 24)', () => {
  const messages = (node: unknown): string[] =>
    node && typeof node === 'object' ? Object.values(node).flatMap(messages) : [String(node)];

  it('a booking is made with "Créer une réservation", a service point is never a "point relais"', () => {
    expect(fr.resources.booking.create).toBe('Créer une réservation');
    expect(messages(fr).filter((text) => /points? relais/i.test(text))).toEqual([]);
  });
});
