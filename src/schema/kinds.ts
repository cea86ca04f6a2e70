/**
 * The closed lists of `x-input.kind`, `x-display.kind` and `x-filter.kind` (schemas/README.md). A kind
 * not listed here fails the schema's compilation and `npm run gen`, naming the schema, the field and
 * the kind, instead of falling back silently to a text box.
 */

/** Kinds the engine draws itself (src/schema/ui/schema-inputs.tsx, src/schema/error-mapping.ts). */
export const engineInputKinds = ['terms', 'per-language', 'date', 'date-dmy', 'date-time', 'time'] as const;

/**
 * Kinds a resource registers, with `schemaResource(id, { inputs, values })`: its own widget or display,
 * or one of the engine's that not every resource loads (address, map, photos). A test holds every
 * schema that names one to a resource registering it (tests/unit/schema/kinds.test.ts).
 */
export const registeredKinds = [
  'address',
  'address-id',
  'carrier-settings',
  'description-translations',
  'map-picker',
  'municipality',
  'opening-hours',
  'permission-tree',
  'photo-gallery',
  'piece-compartment',
  'piece-end-user',
  'piece-notifications',
  'piece-place',
  'piece-tokens',
  'public-description',
  'scout-contact',
  'service-point-status',
  'svg-upload',
  'ticket-kind',
  'ticket-operator',
  'ticket-pinpad',
  'ticket-service-point',
  'ticket-unit',
  'ticket-units',
] as const;

/** Every kind an `x-input` or an `x-display` may name. */
export const inputKinds: readonly string[] = [...engineInputKinds, ...registeredKinds];

/**
 * Kinds whose widget changes a `readOnly` field outside the save (an upload): the only `x-input` a
 * `readOnly` field may have. Any other field shown but never edited says so with `x-display`.
 */
export const uploadKinds: readonly string[] = ['photo-gallery', 'svg-upload'];

/** The list filters the engine draws (src/schema/ui/schema-inputs.tsx). */
export const filterKinds = ['text', 'select', 'reference', 'boolean', 'date', 'date-range'] as const;
