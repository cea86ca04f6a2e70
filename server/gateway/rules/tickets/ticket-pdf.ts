import type { IncomingHttpHeaders } from 'node:http';
import type { ServicePoint } from '../../../../src/types/generated/service-point.ts';
import type { Ticket } from '../../../../src/types/generated/ticket.ts';
import type { OpnameContext } from '../../resource-rules.ts';
import { visibleRecord } from '../../write-pipeline.ts';
import { RECORD_LOOKUPS } from '../../lists.ts';
import { readDoc, SERVICE_POINTS } from '../shared/hardware-store.ts';
import { languageOf, startSheet, type Language } from '../shared/pdf-sheet.ts';
import { TicketType } from '../../../../src/types/generated/codes.ts';
import { inStore, LISTS } from '../shared/endpoints.ts';
import { positiveIdText, queryParams } from '../shared/params.ts';

const pdfParams = queryParams({ ticket_id: positiveIdText('ticket_id') });

/**
 * `GET webtool/maintenance/tickets?opname=pdf&ticket_id=N[&lang=fr-FR]` (spec 02 §7): the ticket's job
 * sheet for the maintenance operator: what, where, by when, for whom, with the service point's address.
 * Whoever may read the ticket may print it (404 otherwise).
 */

interface TicketSheet {
  ticket: Ticket;
  point?: ServicePoint;
  /** Names of lookup items by list type and id, for items no locale names. */
  listNames: Map<string, string>;
}

export function renderTicketSheet(data: TicketSheet, language: Language, now = new Date()): Promise<Buffer> {
  const { ticket, point } = data;
  const { doc, done, t, heading, line, dash, finish } = startSheet(language, {
    title: t0(ticket),
    label: 'tickets.pdf.label',
    generated: 'tickets.pdf.generated',
  });
  const field = (name: string) => t(`resources.tickets.fields.${name}`);
  const lookup = (type: string, id: unknown) => {
    if (id === undefined || id === null) return dash;
    const named = t(`lookups.${type}.${String(id)}`);
    return named !== String(id) ? named : (data.listNames.get(`${type}.${String(id)}`) ?? String(id));
  };
  const choice = (name: string, value: unknown) =>
    value === undefined || value === null ? dash : t(`choices.${name}.${String(value)}`);

  doc.font('regular').fontSize(9).fillColor('#555').text(t('tickets.pdf.title'));
  doc
    .font('bold')
    .fontSize(20)
    .fillColor('black')
    .text(t('tickets.pdf.heading', { id: ticket.ticket_id ?? '' }));
  doc
    .font('regular')
    .fontSize(11)
    .text(
      [choice('ticket_type', ticket.ticket_type), choice('ticket_badge', ticket.badge)]
        .filter((part) => part !== dash)
        .join('  ·  '),
    );

  heading(t('tickets.pdf.job'));
  line(field('event_type'), lookup('ticket_events', ticket.event_type));
  line(field('job_type'), lookup('job_types', ticket.job_type));
  line(field('error_type'), lookup('error_types', ticket.error_type));
  line(field('ticket_verification_status'), choice('ticket_verification', ticket.ticket_verification_status));
  line(field('hardware_name'), ticket.hardware_name ?? dash);
  if (ticket.compartment_id) line(field('compartment_id'), String(ticket.compartment_id));
  line(field('description'), ticket.description ?? dash);
  line(field('reported_by'), ticket.reported_by ?? dash);

  heading(t('tickets.pdf.dates'));
  line(field('sla_date'), ticket.sla_date ?? dash);
  line(field('deadline_date'), [ticket.deadline_date, ticket.deadline_time].filter(Boolean).join(' '));
  line(field('warranty_status'), choice('warranty', ticket.warranty_status));

  heading(t('tickets.pdf.assigned'));
  line(field('maintenance_provider_id'), lookup('maintenance_providers', ticket.maintenance_provider_id));
  line(
    field('operator_name'),
    [ticket.operator_name, ticket.maintenance_operator_code && `(${ticket.maintenance_operator_code})`]
      .filter(Boolean)
      .join(' '),
  );

  heading(t('tickets.pdf.location'));
  line(field('sp_id'), point ? `${point.name} (${point.sp_id ?? point.service_point_id})` : String(ticket.sp_id));
  if (point) {
    line(t('resources.service-points.fields.address'), point.address ?? dash);
    line(t('service_points.pdf.zip_city'), [point.zip, point.city].filter(Boolean).join(' '));
    line(t('resources.service-points.fields.contact_person'), point.contact_person ?? dash);
    line(t('resources.service-points.fields.owner_contact_phone'), point.owner_contact_phone ?? dash);
  }

  if (ticket.ticket_type === TicketType.Install) {
    heading(t('resources.tickets.tabs.installation'));
    line(field('installation_deadline'), ticket.installation_deadline ?? dash);
    line(field('earliest_installation_date'), ticket.earliest_installation_date ?? dash);
    line(field('vehicle_type'), choice('vehicle_type', ticket.vehicle_type));
    line(field('accessories'), (ticket.accessories ?? []).map((id) => lookup('accessories', id)).join(', '));
    line(field('notes_to_operator'), ticket.notes_to_operator ?? dash);
  }
  finish(now);
  return done;
}

/** The PDF's title: the ticket's number, in no language (document information). */
const t0 = (ticket: Ticket) => `Ticket ${ticket.ticket_id ?? ''}`;

export async function ticketPdf(ctx: OpnameContext, query: Record<string, string>, headers: IncomingHttpHeaders) {
  const { ticket_id: key } = pdfParams(query);
  const language = languageOf(query, headers);
  const ticket = (await visibleRecord(ctx.db, ctx.access, ctx.resource, key)).doc as unknown as Ticket;
  const point = await readDoc<ServicePoint>(ctx.db, SERVICE_POINTS, ticket.sp_id);
  const lists = await ctx.db.query<{ type: string; column_id: string; column_name: string }>(
    `SELECT doc->>'type' AS type, doc->>'column_id' AS column_id, doc->>'column_name' AS column_name FROM records
     WHERE ${inStore(LISTS)} AND doc->>'type' = ANY($1::text[])`,
    [['ticket_events', 'job_types', 'error_types', 'accessories']],
  );
  const providers = await ctx.db.query<{ column_id: string; column_name: string }>(
    `SELECT key AS column_id, doc->>'name' AS column_name FROM records WHERE resource = $1`,
    [RECORD_LOOKUPS.maintenance_providers.resource],
  );
  const listNames = new Map([
    ...lists.rows.map((row) => [`${row.type}.${row.column_id}`, row.column_name] as const),
    ...providers.rows.map((row) => [`maintenance_providers.${row.column_id}`, row.column_name] as const),
  ]);
  const bytes = await renderTicketSheet({ ticket, point, listNames }, language);
  return {
    success: true,
    file_name: `ticket-${key}.pdf`,
    content_type: 'application/pdf',
    data: bytes.toString('base64'),
  };
}
