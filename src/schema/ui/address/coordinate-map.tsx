import { useEffect, useRef } from 'react';
import { Box } from '@mui/material';
import { divIcon, type LatLngTuple, type LeafletMouseEvent, type Marker as LeafletMarker } from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { MapContainer, Marker, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { DEFAULT_ZOOM, MAP_TILE_ATTRIBUTION, MAP_TILE_URL, MARKER_ZOOM } from './map-settings.ts';

/** A pin drawn in the page: Leaflet's own marker images would be fetched by URL. */
const pin = divIcon({
  className: 'service-point-pin',
  html: `<svg viewBox="0 0 28 40" width="28" height="40" aria-hidden="true"><path fill="#1976d2" stroke="#0d47a1" stroke-width="1.5" d="M14 1C7 1 1.5 6.5 1.5 13.5 1.5 23 14 39 14 39s12.5-16 12.5-25.5C26.5 6.5 21 1 14 1z"/><circle cx="14" cy="13.5" r="5" fill="#fff"/></svg>`,
  iconSize: [28, 40],
  iconAnchor: [14, 39],
});

export interface CoordinateMapProps {
  /** The service point's coordinates, when it has some. */
  position?: LatLngTuple;
  /** Where to look without coordinates: the country's default centre. */
  centre: LatLngTuple;
  onPick(latitude: number, longitude: number): void;
  label: string;
  markerLabel: string;
}

/**
 * Follows coordinates set from outside the map (a suggestion picked, a number typed) at marker zoom,
 * and the country's centre while there are none; a pick on the map itself leaves the view alone.
 */
function FollowPosition({
  position,
  centre,
  picked,
}: Pick<CoordinateMapProps, 'position' | 'centre'> & { picked: { current?: string } }) {
  const map = useMap();
  const [latitude, longitude] = position ?? [];
  const [centreLatitude, centreLongitude] = centre;
  useEffect(() => {
    if (latitude === undefined || longitude === undefined) {
      map.setView([centreLatitude, centreLongitude], DEFAULT_ZOOM);
      return;
    }
    if (picked.current === `${latitude},${longitude}`) return;
    map.setView([latitude, longitude], Math.max(map.getZoom(), MARKER_ZOOM));
  }, [map, latitude, longitude, centreLatitude, centreLongitude, picked]);
  // The map may first be drawn in a hidden tab, at no size: it measures itself again when shown.
  useEffect(() => {
    // jsdom (the unit tests' form) has no ResizeObserver; a browser without one keeps the first size.
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => map.invalidateSize());
    observer.observe(map.getContainer());
    return () => observer.disconnect();
  }, [map]);
  return null;
}

function ClickToPick({ onPick }: { onPick(event: LeafletMouseEvent): void }) {
  useMapEvents({ click: onPick });
  return null;
}

/**
 * The service point on a Leaflet map (spec 01 §9: zoom 15, 18 on the marker): a click on the map or a
 * drag of the marker sets its coordinates. Without a tile server configured (map-settings.ts) the map
 * draws no background and calls no outside host: a grey plane with the marker and the zoom buttons.
 */
export default function CoordinateMap({ position, centre, onPick, label, markerLabel }: CoordinateMapProps) {
  const picked = useRef<string>(undefined);
  const marker = useRef<LeafletMarker>(null);
  const pick = (latitude: number, longitude: number) => {
    picked.current = `${latitude},${longitude}`;
    onPick(latitude, longitude);
  };
  return (
    <Box
      role="region"
      aria-label={label}
      data-testid="coordinate-map"
      sx={{
        height: 320,
        width: '100%',
        maxWidth: 720,
        borderRadius: 1,
        overflow: 'hidden',
        border: 1,
        borderColor: 'divider',
      }}
    >
      <MapContainer
        center={position ?? centre}
        zoom={position ? MARKER_ZOOM : DEFAULT_ZOOM}
        style={{ height: '100%', width: '100%' }}
        attributionControl={Boolean(MAP_TILE_URL)}
      >
        {MAP_TILE_URL && <TileLayer url={MAP_TILE_URL} attribution={MAP_TILE_ATTRIBUTION} />}
        <FollowPosition position={position} centre={centre} picked={picked} />
        <ClickToPick onPick={(event) => pick(event.latlng.lat, event.latlng.lng)} />
        {position && (
          <Marker
            ref={marker}
            position={position}
            icon={pin}
            draggable
            title={markerLabel}
            alt={markerLabel}
            eventHandlers={{
              dragend: () => {
                const at = marker.current?.getLatLng();
                if (at) pick(at.lat, at.lng);
              },
            }}
          />
        )}
      </MapContainer>
    </Box>
  );
}
