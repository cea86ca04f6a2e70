/**
 * Map settings of the service point screens (spec 01 §9). The tile server is a build setting,
 * `VITE_MAP_TILE_URL` (a Leaflet URL template such as `https://tile.example.com/{z}/{x}/{y}.png`),
 * empty by default: then no tile is fetched from anywhere and the map is a plain coordinate picker.
 */
export const MAP_TILE_URL: string = import.meta.env.VITE_MAP_TILE_URL ?? '';
export const MAP_TILE_ATTRIBUTION: string = import.meta.env.VITE_MAP_TILE_ATTRIBUTION ?? '';

export const DEFAULT_ZOOM = 15;
export const MARKER_ZOOM = 18;

/** The default centres of spec 01 §9: each country's capital. */
export const COUNTRY_CENTRES: Readonly<Record<string, readonly [number, number]>> = {
  DK: [55.6761, 12.5683],
  NO: [59.9139, 10.7522],
  SE: [59.3293, 18.0686],
  RO: [44.4268, 26.1025],
  BE: [50.8503, 4.3517],
  FI: [60.1699, 24.9384],
  GR: [37.9838, 23.7275],
  DE: [52.52, 13.405],
  PL: [52.2297, 21.0122],
};

/** Another country starts where the app's default country (PL) does. */
export const centreOf = (country: unknown) =>
  typeof country === 'string' && Object.hasOwn(COUNTRY_CENTRES, country)
    ? COUNTRY_CENTRES[country]
    : COUNTRY_CENTRES.PL;

/** Street view at a place, opened in a new tab by a link: nothing of it loads in the app. */
export const streetViewUrl = (latitude: number, longitude: number) =>
  `https://www.google.com/maps/@?api=1&map_action=pano&viewpoint=${latitude},${longitude}`;
