/** The partner types of spec 01 §6, as role names, roles and partner records spell them. */
export const partnerTypes = [
  'operator',
  'carrier',
  'maintenance_provider',
  'support_provider',
  'location_owner',
  'hardware_provider',
] as const;

export type PartnerType = (typeof partnerTypes)[number];

/** The partner types a partner page can create an admin for: all but the operator company. */
export const partnerPageTypes = partnerTypes.filter(
  (type): type is Exclude<PartnerType, 'operator'> => type !== 'operator',
);
