import type { IncomingHttpHeaders } from 'node:http';
import type { HardwareUnit } from '../../../../src/types/generated/hardware-unit.ts';
import type { Pinpad } from '../../../../src/types/generated/pinpad.ts';
import type { ServicePoint } from '../../../../src/types/generated/service-point.ts';
import type { OpnameContext } from '../../resource-rules.ts';
import { visibleRecord } from '../../write-pipeline.ts';
import { RECORD_LOOKUPS } from '../../lists.ts';
import { HARDWARE_MODELS, HARDWARE_UNITS, PINPADS } from '../shared/hardware-store.ts';
import { languageOf, startSheet, type Language } from '../shared/pdf-sheet.ts';
import { COMPARTMENTS, inStore, LISTS } from '../shared/endpoints.ts';
import { positiveIdText, queryParams } from '../shared/params.ts';

const pdfParams = queryParams({ service_point_id: positiveIdText('service_point_id') });

/**
 * `GET webtool/service_points?opname=pdf&service_point_id=N[&lang=fr-FR]` (spec 02 §7): a one-page sheet of
 * the service point, for the installer or the location owner, built with pdfkit in DejaVu Sans so that
 * Polish and Nordic names print as written. Whoever may read the service point may print it (404
 * otherwise). The words come from the app's own locale files, in the language the request asks for.
 */

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/** Spec 01 §9: the map link opens at zoom 16. */
export const MAP_LINK_ZOOM = 16;
export const mapLink = (latitude: number, longitude: number) =>
  `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=${MAP_LINK_ZOOM}/${latitude}/${longitude}`;

interface SheetData {
  point: ServicePoint;
  units: (HardwareUnit & { compartments: number })[];
  pinpad?: Pinpad & { model?: string };
  carriers: string[];
  /** Names of lookup items the gateway holds, by list type and id, for items no locale names. */
  listNames: Map<string, string>;
}

async function sheetData(ctx: OpnameContext, key: string): Promise<SheetData> {
  const point = (await visibleRecord(ctx.db, ctx.access, ctx.resource, key)).doc as unknown as ServicePoint;
  const units = await ctx.db.query<{ doc: HardwareUnit; compartments: string }>(
    `SELECT u.doc, (SELECT count(*) FROM records c WHERE ${inStore(COMPARTMENTS, 'c')}
       AND c.doc->>'hardware_id' = u.doc->>'hardware_id') AS compartments
     FROM records u WHERE u.resource = $1 AND u.doc->>'service_point_id' = $2 ORDER BY (u.doc->>'hardware_id')::int`,
    [HARDWARE_UNITS, key],
  );
  const pads = await ctx.db.query<{ doc: Pinpad; model: string | null }>(
    `SELECT p.doc, m.doc->>'name' AS model FROM records p
     LEFT JOIN records m ON m.resource = $2 AND m.key = p.doc->>'hardware_model_id'
     WHERE p.resource = $1 AND p.doc->>'service_point_id' = $3 ORDER BY (p.doc->>'pinpad_id')::int LIMIT 1`,
    [PINPADS, HARDWARE_MODELS, key],
  );
  const carrierIds = (point.carriers_access ?? []).map(String);
  const carriers = await ctx.db.query<{ name: string }>(
    `SELECT doc->>'name' AS name FROM records WHERE resource = $1 AND key = ANY($2::text[]) ORDER BY doc->>'name'`,
    [RECORD_LOOKUPS.carrier_list.resource, carrierIds],
  );
  const lists = await ctx.db.query<{ type: string; column_id: string; column_name: string }>(
    `SELECT doc->>'type' AS type, doc->>'column_id' AS column_id, doc->>'column_name' AS column_name FROM records
     WHERE ${inStore(LISTS)} AND doc->>'type' = ANY($1::text[])`,
    [['delivery_methods', 'location_types', 'region', 'sub_region', 'time_zones']],
  );
  const pad = pads.rows[0];
  return {
    point,
    units: units.rows.map((row) => ({ ...row.doc, compartments: Number(row.compartments) })),
    pinpad: pad && { ...pad.doc, model: pad.model ?? undefined },
    carriers: carriers.rows.map((row) => row.name),
    listNames: new Map(lists.rows.map((row) => [`${row.type}.${row.column_id}`, row.column_name])),
  };
}

/** Draws the sheet; resolves with the file's bytes. */
export function renderSheet(data: SheetData, language: Language, now = new Date()): Promise<Buffer> {
  const { point } = data;
  const { doc, done, t, heading, line, labelled, dash, finish } = startSheet(language, {
    title: `${point.name} (${point.sp_id ?? point.service_point_id})`,
    label: 'service_points.pdf.label',
    generated: 'service_points.pdf.generated',
  });
  const field = (name: string) => t(`resources.service-points.fields.${name}`);
  const lookup = (type: string, id: unknown) => {
    if (id === undefined || id === null) return dash;
    const named = t(`lookups.${type}.${String(id)}`);
    return named !== String(id) ? named : (data.listNames.get(`${type}.${String(id)}`) ?? String(id));
  };

  doc.font('regular').fontSize(9).fillColor('#555').text(t('service_points.pdf.title'));
  doc.font('bold').fontSize(20).fillColor('black').text(point.name);
  const status = point.is_terminated ? 9 : point.status;
  doc
    .font('regular')
    .fontSize(11)
    .text(
      [
        labelled(field('sp_id'), point.sp_id ?? dash),
        labelled(field('status'), t(`choices.service_point_status.${status}`)),
      ].join('   '),
    );
  if (point.test_sp) doc.fillColor('#b00020').text(field('test_sp')).fillColor('black');

  heading(t('service_points.pdf.location'));
  line(field('address'), point.address ?? dash);
  line(t('service_points.pdf.zip_city'), [point.zip, point.city].filter(Boolean).join(' '));
  line(field('country'), t(`choices.country.${point.country}`));
  if (point.municipality) line(field('municipality'), point.municipality);
  if (point.region_id !== undefined) line(field('region_id'), lookup('region', point.region_id));
  if (point.location_type_id !== undefined)
    line(field('location_type_id'), lookup('location_types', point.location_type_id));
  if (point.time_zone) line(field('time_zone'), lookup('time_zones', point.time_zone));
  if (point.wheelchair_accessible !== undefined) {
    line(field('wheelchair_accessible'), t(point.wheelchair_accessible ? 'table.yes' : 'table.no'));
  }
  if (typeof point.latitude === 'number' && typeof point.longitude === 'number') {
    line(t('service_points.pdf.coordinates'), `${point.latitude}, ${point.longitude}`);
    const url = mapLink(point.latitude, point.longitude);
    doc.font('bold').text(t('service_points.pdf.label', { label: t('service_points.pdf.map') }));
    doc.font('regular').fontSize(9).fillColor('#0b57d0').text(url, { link: url, underline: true });
    doc.fontSize(10).fillColor('black');
  }

  heading(field('opening_hours'));
  WEEKDAYS.forEach((day, index) => {
    const hours = point.opening_hours?.[day];
    const shown = !hours ? dash : hours.closed ? t('service_points.pdf.closed') : `${hours.open} – ${hours.close}`;
    line(t(`choices.weekday.${index + 1}`), shown);
  });

  heading(t('service_points.pdf.delivery'));
  line(
    field('delivery_methods'),
    (point.delivery_methods ?? []).map((id) => lookup('delivery_methods', id)).join(', '),
  );
  line(field('delivery_days'), (point.delivery_days ?? []).map((day) => t(`choices.weekday.${day}`)).join(', '));

  heading(t('service_points.pdf.hardware_units', { count: data.units.length }));
  if (!data.units.length) doc.text(t('service_points.pdf.none'));
  for (const unit of data.units) {
    const unitStatus = unit.status === undefined ? dash : t(`choices.hardware_status.${unit.status}`);
    doc
      .font('bold')
      .text(`${unit.name ?? unit.hardware_id}`, { continued: true })
      .font('regular')
      .text(
        `  ${[
          labelled(t('service_points.pdf.model'), unit.model_name ?? dash),
          labelled(field('status'), unitStatus),
          labelled(t('service_points.pdf.compartments'), String(unit.compartments)),
        ].join('  ·  ')}`,
      );
  }

  heading(t('service_points.pdf.pinpad'));
  if (data.pinpad) {
    const pad = data.pinpad;
    doc.text(
      [
        `#${pad.pinpad_id}`,
        labelled(t('service_points.pdf.model'), pad.model ?? dash),
        labelled(field('status'), pad.status === undefined ? dash : t(`choices.hardware_status.${pad.status}`)),
      ].join('  ·  '),
    );
  } else doc.text(t('service_points.pdf.none'));

  heading(field('carriers_access'));
  doc.text(data.carriers.length ? data.carriers.join(', ') : t('service_points.pdf.none'));

  heading(t('service_points.pdf.contact'));
  line(field('contact_person'), point.contact_person ?? dash);
  line(field('owner_contact_phone'), point.owner_contact_phone ?? dash);
  line(field('email'), point.email ?? dash);

  finish(now);
  return done;
}

/** The file's name: the service point's SP id, else its id, in characters every file system takes. */
const fileNameOf = (point: ServicePoint) =>
  `service-point-${String(point.sp_id ?? point.service_point_id).replace(/[^\w-]+/g, '_')}.pdf`;

async function servicePointPdf(ctx: OpnameContext, query: Record<string, string>, headers: IncomingHttpHeaders) {
  const { service_point_id: key } = pdfParams(query);
  const language = languageOf(query, headers);
  const data = await sheetData(ctx, key);
  const bytes = await renderSheet(data, language);
  // Base64 in JSON: the app's signed gateway client reads JSON bodies, and a download link could not sign.
  return {
    success: true,
    file_name: fileNameOf(data.point),
    content_type: 'application/pdf',
    data: bytes.toString('base64'),
  };
}

export const servicePointPdfQueries = { pdf: servicePointPdf };
