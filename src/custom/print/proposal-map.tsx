import 'leaflet/dist/leaflet.css';
import { divIcon } from 'leaflet';
import { MapContainer, Marker, TileLayer } from 'react-leaflet';
import { MAP_TILE_ATTRIBUTION, MAP_TILE_URL } from '../../schema/ui/address/map-settings.ts';

/** Spec 01 §9: the print sheet's map is at zoom 15. */
export const PRINT_MAP_ZOOM = 15;

const pin = divIcon({
  className: 'proposal-pin',
  html: `<svg viewBox="0 0 28 40" width="28" height="40" aria-hidden="true"><path fill="#1976d2" stroke="#0d47a1" stroke-width="1.5" d="M14 1C7 1 1.5 6.5 1.5 13.5 1.5 23 14 39 14 39s12.5-16 12.5-25.5C26.5 6.5 21 1 14 1z"/><circle cx="14" cy="13.5" r="5" fill="#fff"/></svg>`,
  iconSize: [28, 40],
  iconAnchor: [14, 39],
});

/**
 * A proposal's place on a still map for the print sheet: zoom 15, the marker, no controls. The tiles come
 * from the configured tile server (`VITE_MAP_TILE_URL`); without one, as in tests, nothing is fetched.
 */
export default function ProposalMap({
  latitude,
  longitude,
  label,
}: {
  latitude: number;
  longitude: number;
  label: string;
}) {
  return (
    <div className="proposal-map" role="img" aria-label={label} data-testid="proposal-map" data-zoom={PRINT_MAP_ZOOM}>
      <MapContainer
        center={[latitude, longitude]}
        zoom={PRINT_MAP_ZOOM}
        style={{ height: '100%', width: '100%' }}
        zoomControl={false}
        dragging={false}
        scrollWheelZoom={false}
        doubleClickZoom={false}
        attributionControl={Boolean(MAP_TILE_URL)}
      >
        {MAP_TILE_URL && <TileLayer url={MAP_TILE_URL} attribution={MAP_TILE_ATTRIBUTION} />}
        <Marker position={[latitude, longitude]} icon={pin} interactive={false} />
      </MapContainer>
    </div>
  );
}
