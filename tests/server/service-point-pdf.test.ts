import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import type { ServicePoint } from '../../src/types/generated/service-point.ts';
import { startStack, type Stack } from './support/stack.ts';
import { pdfObjects, pdfPages } from './support/pdf-text.ts';
import { signInAll } from './support/sessions.ts';

let stack: Stack;
let operator: SigningSession;
let owner: SigningSession;
/** An active service point with units, a PIN pad and carriers, owned by Coop Nord (the `locationowner`). */
let point: ServicePoint;
let units: { name: string; compartments: number }[];

beforeAll(async () => {
  stack = await startStack();
  ({ operator, locationowner: owner } = await signInAll(stack, ['operator', 'locationowner']));
  const found = await stack.db.query<{ doc: ServicePoint }>(
    `SELECT sp.doc FROM records sp WHERE sp.resource = 'service_points' AND sp.doc->>'location_owner_id' = '1'
       AND sp.doc->>'country' = 'PL' AND jsonb_array_length(sp.doc->'carriers_access') > 0
       AND EXISTS (SELECT 1 FROM records p WHERE p.resource = 'service_points/pinpad'
         AND p.doc->>'service_point_id' = sp.key)
     ORDER BY sp.key::int LIMIT 1`,
  );
  point = found.rows[0].doc;
  const unitRows = await stack.db.query<{ name: string; compartments: string }>(
    `SELECT u.doc->>'name' AS name, (SELECT count(*) FROM records c WHERE c.resource = 'compartments'
       AND c.doc->>'hardware_id' = u.doc->>'hardware_id') AS compartments
     FROM records u WHERE u.resource = 'service_points/hardware_units' AND u.doc->>'service_point_id' = $1`,
    [String(point.service_point_id)],
  );
  units = unitRows.rows.map((row) => ({ name: row.name, compartments: Number(row.compartments) }));
});
afterAll(() => stack.close());

const pdf = (session: SigningSession, query: Record<string, string>, headers: Record<string, string> = {}) =>
  stack.send(session, {
    method: 'GET',
    path: 'webtool/service_points',
    query: { opname: 'pdf', ...query },
    headers,
  });

function sheet(body: Record<string, unknown>) {
  const bytes = Buffer.from(String(body.data), 'base64');
  return { bytes, text: pdfPages(bytes).join('\n'), pages: pdfPages(bytes).length };
}

describe('GET webtool/service_points opname=pdf', () => {
  it('answers a real one-page PDF of the service point: place, hours, delivery, hardware, PIN pad, carriers', async () => {
    expect(units.length).toBeGreaterThan(0);
    const response = await pdf(operator, { service_point_id: String(point.service_point_id) });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      content_type: 'application/pdf',
      file_name: `service-point-${point.sp_id}.pdf`,
    });
    const { bytes, text, pages } = sheet(response.body);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.subarray(-6).toString()).toContain('%%EOF');
    expect(pages).toBe(1);
    expect([...pdfObjects(bytes).values()].some((object) => /\/Type \/Pages[\s\S]*\/Count 1\b/.test(object.dict))).toBe(
      true,
    );
    // Polish letters of the name, address and city come out as written: the font has them.
    expect(text).toContain('Service point sheet');
    expect(text).toContain(point.name);
    expect(text).toContain(point.address!);
    expect(text).toContain(`${point.zip} ${point.city}`);
    expect(text).toMatch(/[ąćęłńóśźżĄĆĘŁŃÓŚŹŻ]/);
    expect(text).toContain('Poland');
    expect(text).toContain(`${point.latitude}, ${point.longitude}`);
    expect(text).toContain(
      `Map: \nhttps://www.openstreetmap.org/?mlat=${point.latitude}&mlon=${point.longitude}#map=16/${point.latitude}/${point.longitude}`,
    );
    const monday = point.opening_hours!.monday!;
    expect(text).toContain(`Monday: \n${monday.closed ? 'Closed' : `${monday.open} – ${monday.close}`}`);
    expect(text).toMatch(/Delivery methods: \nLocker/);
    // A unit's line may wrap: compared with the page's spaces and breaks as single spaces.
    const flat = text.replace(/\s+/g, ' ');
    for (const unit of units)
      expect(flat).toMatch(new RegExp(`${unit.name} Model: .+? · Status: .+? · Compartments: ${unit.compartments}`));
    for (const unit of units) expect(text).toContain(unit.name);
    expect(text).toMatch(/PIN pad\n#\d+/);
    expect(text).toMatch(/Generated on .+ UTC/);
  });

  it('speaks French when the request asks for it, by lang or by Accept-Language', async () => {
    const id = String(point.service_point_id);
    for (const response of [
      await pdf(operator, { service_point_id: id, lang: 'fr-FR' }),
      await pdf(operator, { service_point_id: id }, { 'accept-language': 'de-DE, fr;q=0.9, en;q=0.5' }),
    ]) {
      expect(response.status).toBe(200);
      const { text } = sheet(response.body);
      expect(text).toContain('Fiche du point de service');
      expect(text).toContain('Pologne');
      expect(text).toContain("Heures d'ouverture");
      expect(text).toContain('Lundi : ');
      expect(text).toContain('Généré le');
      expect(text).not.toContain('Opening hours');
    }
    const english = sheet(
      (await pdf(operator, { service_point_id: id }, { 'accept-language': 'fr;q=0.1, en-GB' })).body,
    );
    expect(english.text).toContain('Opening hours');
  });

  it('prints for whoever may read the service point, and is a 404 for a service point the caller cannot see', async () => {
    expect((await pdf(owner, { service_point_id: String(point.service_point_id) })).status).toBe(200);
    const other = await stack.db.query<{ key: string }>(
      `SELECT key FROM records WHERE resource = 'service_points' AND doc->>'location_owner_id' <> '1' LIMIT 1`,
    );
    const refused = await pdf(owner, { service_point_id: other.rows[0].key });
    expect(refused.status).toBe(404);
    expect(refused.body.data).toBeUndefined();
    expect((await pdf(operator, { service_point_id: '999999' })).status).toBe(404);
  });

  it('answers 400 to a missing or malformed id and to a language it does not speak', async () => {
    for (const query of [{}, { service_point_id: 'x' }, { service_point_id: '0' }] as Record<string, string>[]) {
      expect((await pdf(operator, query)).status, JSON.stringify(query)).toBe(400);
    }
    const german = await pdf(operator, { service_point_id: String(point.service_point_id), lang: 'de-DE' });
    expect(german).toMatchObject({
      status: 400,
      body: { message: 'lang must be one of: en-US, fr-FR.', message_key: 'gateway.one_of' },
    });
  });
});
