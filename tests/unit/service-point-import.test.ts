import { QueryClient } from '@tanstack/react-query';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import type { Gateway } from '../../src/schema/ui/gateway-api.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en-US.json';
import fr from '../../locales/fr-FR.json';
import { importFile, type ImportResult } from '../../src/schema/bulk-import.ts';
import { csvChunk, csvFile, exportPlan } from '../../src/schema/csv-export.ts';
import { importVocabulary } from '../../src/schema/ui/import-vocabulary.ts';
import { loadValidators, schemaRegistry } from '../../src/schema/ui/registry.ts';

const model = schemaRegistry.model('service-point');

/** The lookup lists the gateway answers, named in English as production does. */
const LISTS: Record<string, { column_id: number | string; column_name: string }[]> = {
  location_types: [
    { column_id: 1, column_name: 'Supermarket' },
    { column_id: 2, column_name: 'Kiosk' },
  ],
  region: [{ column_id: 5, column_name: 'Oslo' }],
  sub_region: [{ column_id: 5, column_name: 'Oslo Sentrum' }],
  time_zones: [{ column_id: 'Europe/Oslo', column_name: 'Oslo' }],
  foundations: [{ column_id: 2, column_name: 'Paving stones' }],
  delivery_methods: [
    { column_id: 1, column_name: 'Locker' },
    { column_id: 2, column_name: 'Staffed counter' },
  ],
  carrier_list: [
    { column_id: 1, column_name: 'NordPost' },
    { column_id: 6, column_name: 'Øresund Logistics' },
  ],
  location_owners: [{ column_id: 1, column_name: 'Coop Nord' }],
  maintenance_providers: [{ column_id: 1, column_name: 'FixIt Services' }],
  support_providers: [{ column_id: 1, column_name: 'HelpDesk Nordic' }],
  service_point_groups: [{ column_id: 3, column_name: 'Oslo central' }],
};

const dataProvider = {
  call: async ({ query }: { query: { type: string } }) => ({ data: LISTS[query.type] ?? [] }),
} as unknown as Gateway;

function translatorOf(language: 'en-US' | 'fr-FR') {
  const provider = polyglotI18nProvider(() => ({ ...englishMessages, ...(language === 'en-US' ? en : fr) }), language);
  return (key: string, options?: Record<string, unknown>) => provider.translate(key, options);
}

async function vocabularyOf(language: 'en-US' | 'fr-FR') {
  return (await importVocabulary(model, translatorOf(language), language, dataProvider, new QueryClient())).vocabulary;
}

/** The export's file for some rows, in one language, lookups named as the list shows them. */
function exported(language: 'en-US' | 'fr-FR', rows: Record<string, unknown>[]) {
  const translate = translatorOf(language);
  const lookups = Object.fromEntries(
    model.fields
      .filter((field) => field.lookup?.source)
      .map((field) => {
        const type = new URL(field.lookup!.source!, 'http://x').searchParams.get('type')!;
        const items = LISTS[type] ?? [];
        return [
          field.source,
          Object.fromEntries(
            items.map((item) => [
              String(item.column_id),
              translate(`lookups.${type}.${item.column_id}`, { _: item.column_name }),
            ]),
          ),
        ];
      }),
  );
  const plan = exportPlan(model, translate, lookups);
  return csvFile(plan, [csvChunk(plan, rows)]);
}

const parse = async (text: string, language: 'en-US' | 'fr-FR' = 'en-US'): Promise<ImportResult> =>
  importFile(new File([text], 'points.csv', { type: 'text/csv' }), {
    registry: schemaRegistry,
    schemaId: 'service-point',
    vocabulary: await vocabularyOf(language),
  });

const stored = {
  service_point_id: 42,
  sp_id: 'NO00042',
  name: 'Coop Nord Kiosk Oslo 42',
  location_name: 'Kiosk Oslo',
  status: 7,
  country: 'NO',
  address: 'Storgata 12',
  zip: '0155',
  city: 'Oslo',
  municipality: 'Oslo',
  region_id: 5,
  sub_region_id: 5,
  latitude: 59.913901,
  longitude: 10.752201,
  time_zone: 'Europe/Oslo',
  location_type_id: 2,
  foundation_id: 2,
  delivery_methods: [1, 2],
  delivery_days: [1, 2, 3, 4, 5, 6],
  wheelchair_accessible: true,
  tag1: 'Parking',
  tag2: 'City centre',
  max_hardware_units: 2,
  hardware_models: ['Compact 2', 'City 3'],
  carriers_access: [1, 6],
  location_owner_id: 1,
  maintenance_provider_id: 1,
  support_provider_id: 1,
  service_point_group_id: 3,
  contract_signed: true,
  is_terminated: false,
  parked: false,
  test_sp: false,
  active: true,
  description: 'Ved hovedinngangen, til venstre for kassene.',
  description_language: 'nb',
  comments: 'Key at the counter',
  contact_person: 'Kari Nordmann',
  owner_contact_phone: '+4712345678',
  email: 'kari@coop.test',
  // Read-only and derived: in the file, left out of the import.
  badges_v2: [],
  incomplete: false,
  group_name: 'Oslo central',
};

/** What an import can carry: the exported, writable fields. */
const importable = Object.fromEntries(
  Object.entries(stored).filter(
    ([field]) => !['service_point_id', 'badges_v2', 'incomplete', 'group_name'].includes(field),
  ),
);

describe('a service point file the export wrote imports again', () => {
  // As the import button does: the validators load before the file is checked.
  beforeAll(() => loadValidators());

  it.each(['en-US', 'fr-FR'] as const)(
    'in %s: translated headers, names, Yes/No, lists and quoted cells',
    async (language) => {
      const file = exported(language, [stored, { ...stored, name: 'Second Kiosk', latitude: 60, tag2: undefined }]);
      // The export wrote names and words, not ids: it is the file a user would open and send back.
      expect(file).toContain(language === 'en-US' ? 'Staffed counter' : 'Comptoir avec personnel');
      expect(file).toContain("'+4712345678");
      const result = await parse(file, language);
      expect(result.state).toBe('uploaded');
      expect(result.rows.map((row) => row.errors)).toEqual([{}, {}]);
      expect(result.rows[0].data).toEqual(importable);
      expect(result.rows[1].data).toEqual({ ...importable, name: 'Second Kiosk', latitude: 60, tag2: undefined });
    },
  );

  it('reads the field names, ids, codes and semicolon lists as before', async () => {
    const result = await parse(
      [
        'name,country,status,location_type_id,delivery_methods,carriers_access,time_zone,active',
        'Raw Kiosk,NO,1,2,1; 2,1;6,Europe/Oslo,true',
      ].join('\n'),
    );
    expect(result.rows[0]).toMatchObject({
      validity: 'valid',
      data: {
        name: 'Raw Kiosk',
        location_type_id: 2,
        delivery_methods: [1, 2],
        carriers_access: [1, 6],
        time_zone: 'Europe/Oslo',
        active: true,
      },
    });
  });

  it('names what it does not know, and holds a named lookup to 100 characters', async () => {
    const result = await parse(
      [
        'Name,Country,Status,Location type,Delivery methods,Carriers',
        'Kiosk One,Norway,New,Castle,Locker,NordPost',
        'Kiosk Two,Narnia,New,Kiosk,"Locker, Drone",NordPost',
        `Kiosk Three,${'N'.repeat(101)},New,${'K'.repeat(101)},Locker,Nobody`,
      ].join('\n'),
    );
    const [one, two, three] = result.rows.map((row) => row.errors);
    expect(one).toEqual({
      location_type_id: { message: 'import.errors.unknown_name', args: { name: 'Castle' }, kind: 'invalid' },
    });
    expect(two).toEqual({
      country: { message: 'import.errors.unknown_name', args: { name: 'Narnia' }, kind: 'invalid' },
      delivery_methods: { message: 'import.errors.unknown_name', args: { name: 'Drone' }, kind: 'invalid' },
    });
    expect(three).toEqual({
      country: { message: 'validation.max_length', args: { max: 100 }, kind: 'length' },
      location_type_id: { message: 'validation.max_length', args: { max: 100 }, kind: 'length' },
      carriers_access: { message: 'import.errors.unknown_name', args: { name: 'Nobody' }, kind: 'invalid' },
    });
  });

  it('lists each row error per field with its spec kind, the model and unit count mismatch among them', async () => {
    const result = await parse(
      [
        'Name,Country,Status,Zip,Address,Max hardware units,Hardware models,Location name',
        ' Leading,Norway,New,123,.Storgata,1,"Compact 2, City 3",Kiosk#1',
        ',Norway,New,0155,Storgata 1,2,,',
      ].join('\n'),
    );
    const kinds = result.rows.map((row) => Object.fromEntries(Object.entries(row.errors).map(([f, e]) => [f, e.kind])));
    expect(kinds).toEqual([
      {
        name: 'special_characters',
        zip: 'length',
        address: 'period_at_start',
        hardware_models: 'mismatch',
        location_name: 'special_characters',
      },
      { name: 'missing' },
    ]);
    expect(result.rows[0].errors.zip).toMatchObject({ message: 'validation.min_length', args: { min: 4 } });
  });

  it('leaves out read-only columns, and still refuses a column it does not know', async () => {
    const ok = await parse('ID,Name,Country,Status,Badges,Group name\n7,Kiosk,Norway,New,-,Oslo central\n');
    expect(ok.rows[0]).toMatchObject({ validity: 'valid', data: { name: 'Kiosk', country: 'NO', status: 1 } });
    expect(ok.rows[0].data).not.toHaveProperty('service_point_id');
    expect(await parse('Name,Country,Status,Colour\nKiosk,Norway,New,red\n')).toMatchObject({
      state: 'header_mismatch',
      args: { fields: 'Colour' },
    });
  });
});
