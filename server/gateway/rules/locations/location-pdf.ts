import type { Location } from '../../../../src/types/generated/location.ts';
import type { LocationContact } from '../../../../src/types/generated/location-contact.ts';
import type { LocationProposal } from '../../../../src/types/generated/location-proposal.ts';
import { mapLink } from '../service-points/service-point-pdf.ts';
import { startSheet, type Language } from '../shared/pdf-sheet.ts';

/** What the location sheet shows: the stored records and the names of what they refer to. */
export interface LocationSheetData {
  location: Location;
  ownerName?: string;
  municipalityName?: string;
  locationTypeName?: string;
  proposals: (LocationProposal & { modelNames: string; foundationName?: string })[];
  contacts: LocationContact[];
}

const hasPlace = (item: { latitude?: number; longitude?: number }): item is { latitude: number; longitude: number } =>
  typeof item.latitude === 'number' && typeof item.longitude === 'number';

/**
 * `GET webtool/locations?opname=get_pdf&location_id=N[&lang=fr-FR]` (spec 02 §7): the location's sheet,
 * its basic data, each proposal (status, address, hardware, capacity, dates, place with its map link) and
 * its contact persons, in the request's language (pdfkit, DejaVu Sans, as the other sheets).
 */
export function renderLocationSheet(data: LocationSheetData, language: Language, now = new Date()): Promise<Buffer> {
  const { location } = data;
  const { doc, done, t, heading, line, dash, finish } = startSheet(language, {
    title: location.name,
    label: 'service_points.pdf.label',
    generated: 'service_points.pdf.generated',
  });
  const day = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
  const date = (value: string) => (Number.isNaN(Date.parse(value)) ? value : day.format(new Date(value)));
  const field = (name: string) => t(`resources.locations.fields.${name}`);
  const proposalField = (name: string) => t(`resources.location-proposals.fields.${name}`);
  const contactField = (name: string) => t(`resources.location-contacts.fields.${name}`);
  const mapLine = (place: { latitude: number; longitude: number }) => {
    line(t('service_points.pdf.coordinates'), `${place.latitude}, ${place.longitude}`);
    const url = mapLink(place.latitude, place.longitude);
    doc.font('regular').fontSize(9).fillColor('#0b57d0').text(url, { link: url, underline: true });
    doc.fontSize(10).fillColor('black');
  };

  doc.font('regular').fontSize(9).fillColor('#555').text(t('location_proposals.pdf.title'));
  doc.font('bold').fontSize(20).fillColor('black').text(location.name);

  heading(t('resources.locations.tabs.basic'));
  line(field('address_1'), location.address_1 ?? dash);
  line(t('service_points.pdf.zip_city'), [location.zip, location.city].filter(Boolean).join(' '));
  line(field('country'), t(`choices.country.${location.country}`));
  line(field('municipality_id'), data.municipalityName ?? dash);
  line(field('location_type_id'), data.locationTypeName ?? dash);
  line(field('location_owner_id'), data.ownerName ?? dash);
  line(field('is_rural'), t(location.is_rural ? 'table.yes' : 'table.no'));
  if (location.operator_reference) line(field('operator_reference'), location.operator_reference);
  if (hasPlace(location)) mapLine(location);
  if (location.description) line(field('description'), location.description);
  if (location.comments) line(field('comments'), location.comments);
  if (location.contact_person || location.owner_contact_phone || location.contact_email) {
    line(field('contact_person'), location.contact_person ?? dash);
    line(field('owner_contact_phone'), location.owner_contact_phone ?? dash);
    line(field('contact_email'), location.contact_email ?? dash);
  }

  heading(`${t('resources.locations.tabs.proposals')} (${data.proposals.length})`);
  if (!data.proposals.length) doc.text(t('location_proposals.none'));
  for (const proposal of data.proposals) {
    doc.moveDown(0.4).font('bold').fontSize(11).text(proposal.name).font('regular').fontSize(10);
    line(proposalField('status'), t(`choices.proposal_status.${proposal.status}`));
    const address = [proposal.address, [proposal.zip, proposal.city].filter(Boolean).join(' ')].filter(Boolean);
    line(proposalField('address'), address.join(', '));
    line(proposalField('hardware_models'), proposal.modelNames);
    line(proposalField('max_capacity'), proposal.max_capacity === undefined ? dash : String(proposal.max_capacity));
    if (proposal.foundationName) line(proposalField('foundation_id'), proposal.foundationName);
    if (proposal.earliest_installation_date)
      line(proposalField('earliest_installation_date'), date(proposal.earliest_installation_date));
    if (proposal.installation_deadline)
      line(proposalField('installation_deadline'), date(proposal.installation_deadline));
    if (proposal.location_description) line(proposalField('location_description'), proposal.location_description);
    if (hasPlace(proposal)) mapLine(proposal);
    else line(t('service_points.pdf.coordinates'), t('location_proposals.map_missing'));
  }

  heading(`${t('resources.locations.tabs.contacts')} (${data.contacts.length})`);
  if (!data.contacts.length) doc.text(t('service_points.pdf.none'));
  const proposalNames = new Map(data.proposals.map((proposal) => [proposal.proposal_id, proposal.name]));
  for (const contact of data.contacts) {
    doc.moveDown(0.3).font('bold').text(contact.name).font('regular');
    line(contactField('phone'), contact.phone ?? dash);
    line(contactField('email'), contact.email ?? dash);
    if (contact.proposal_id !== undefined)
      line(contactField('proposal_id'), proposalNames.get(contact.proposal_id) ?? dash);
  }

  finish(now);
  return done;
}

/** The file's name, in characters every file system takes. */
export const locationPdfName = (location: Location) =>
  `location-${String(location.location_id)}-${location.name.replace(/[^\p{L}\p{Nd}_-]+/gu, '_').slice(0, 60)}.pdf`;
