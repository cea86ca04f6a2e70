import { useEffect } from 'react';
import { Box } from '@mui/material';
import { divIcon, latLngBounds, type LatLngTuple, type Marker as LeafletMarker } from 'leaflet';
import 'leaflet/dist/leaflet.css';
import {
  CircleMarker,
  MapContainer,
  Marker,
  Polygon,
  Polyline,
  TileLayer,
  Tooltip,
  useMap,
  useMapEvents,
} from 'react-leaflet';
import { MAP_TILE_ATTRIBUTION, MAP_TILE_URL } from '../../schema/ui/address/map-settings.ts';
import type { Polygon as GeoPolygon } from './generator-api.ts';

export interface MapRegion {
  key: string;
  kind: 'area' | 'zone';
  name: string;
  geometry: GeoPolygon;
  /** Chosen (a report's area or zone): drawn stronger. */
  chosen?: boolean;
}

export interface MapPoint {
  id: number;
  latitude: number;
  longitude: number;
  label: string;
  selected: boolean;
  converted?: boolean;
}

export interface GeneratorMapProps {
  label: string;
  regions: MapRegion[];
  /** The shape being drawn: [latitude, longitude] vertices in order; clicks on the map add one. */
  drawing?: LatLngTuple[];
  onDrawPoint?(point: LatLngTuple): void;
  /** Given, the drawing's vertices can be dragged (a shape being edited): the vertex's new place. */
  onMoveVertex?(index: number, point: LatLngTuple): void;
  points?: MapPoint[];
  onTogglePoint?(id: number): void;
  /** Where to look when there is nothing to fit. */
  centre: LatLngTuple;
  height?: number | { xs: number; lg: number };
}

/** A vertex handle to drag: a white square with the drawing's orange edge, keyboard-focusable. */
const VERTEX_ICON = divIcon({
  className: 'generator-vertex',
  html: '<span style="display:block;width:12px;height:12px;background:#fff;border:2px solid #e65100;box-sizing:border-box"></span>',
  iconSize: [12, 12],
  iconAnchor: [6, 6],
});

const rounded = (value: number) => Number(value.toFixed(6));

const toLatLngs = (geometry: GeoPolygon): LatLngTuple[] =>
  geometry.coordinates[0].map(([lng, lat]) => [lat, lng] as LatLngTuple);

/** Fits the view to what is shown whenever that changes (the regions and points, not a vertex being drawn). */
function FitTo({ bounds, centre }: { bounds: LatLngTuple[]; centre: LatLngTuple }) {
  const map = useMap();
  const key = JSON.stringify(bounds);
  const [latitude, longitude] = centre;
  useEffect(() => {
    const fit = JSON.parse(key) as LatLngTuple[];
    // At once, not animated: a click while the view still moves would land elsewhere.
    if (fit.length) map.fitBounds(latLngBounds(fit), { padding: [24, 24], maxZoom: 15, animate: false });
    else map.setView([latitude, longitude], 11, { animate: false });
  }, [map, key, latitude, longitude]);
  useEffect(() => {
    const observer = new ResizeObserver(() => map.invalidateSize());
    observer.observe(map.getContainer());
    return () => observer.disconnect();
  }, [map]);
  return null;
}

function Clicks({ onClick }: { onClick?(point: LatLngTuple): void }) {
  useMapEvents({
    click: (event) => onClick?.([Number(event.latlng.lat.toFixed(6)), Number(event.latlng.lng.toFixed(6))]),
  });
  return null;
}

/**
 * The generator's map (hand-written, issue 29.4): areas and zones as polygons, the shape being drawn
 * (each click a vertex), and a report's candidate locations as circles, selected ones stronger; a click on
 * one toggles it. Without a tile server configured it draws no background and calls no outside host.
 */
export default function GeneratorMap({
  label,
  regions,
  drawing = [],
  onDrawPoint,
  onMoveVertex,
  points = [],
  onTogglePoint,
  centre,
  height = 480,
}: GeneratorMapProps) {
  // The chosen regions when some are (an area picked for a report brings the map to it), else all.
  const shown = regions.some((region) => region.chosen) ? regions.filter((region) => region.chosen) : regions;
  const bounds: LatLngTuple[] = [
    ...shown.flatMap((region) => toLatLngs(region.geometry)),
    ...points.map((point): LatLngTuple => [point.latitude, point.longitude]),
  ];
  return (
    <Box
      role="region"
      aria-label={label}
      data-testid="generator-map"
      data-drawn-points={drawing.length}
      sx={{ height, width: '100%', border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden' }}
    >
      <MapContainer
        center={centre}
        zoom={11}
        style={{ height: '100%', width: '100%', cursor: onDrawPoint ? 'crosshair' : undefined }}
        attributionControl={Boolean(MAP_TILE_URL)}
      >
        {MAP_TILE_URL && <TileLayer url={MAP_TILE_URL} attribution={MAP_TILE_ATTRIBUTION} />}
        <FitTo bounds={bounds} centre={centre} />
        <Clicks onClick={onDrawPoint} />
        {regions.map((region) => (
          <Polygon
            key={region.key}
            positions={toLatLngs(region.geometry)}
            pathOptions={{
              color: region.kind === 'area' ? '#1565c0' : '#2e7d32',
              weight: region.chosen ? 3 : 1.5,
              fillOpacity: region.chosen ? 0.15 : 0.05,
              dashArray: region.kind === 'zone' ? '6 4' : undefined,
            }}
          >
            <Tooltip sticky>{region.name}</Tooltip>
          </Polygon>
        ))}
        {drawing.length >= 2 && (
          <Polyline
            positions={drawing.length >= 3 ? [...drawing, drawing[0]] : drawing}
            pathOptions={{ color: '#e65100', weight: 2, dashArray: '4 4' }}
          />
        )}
        {onMoveVertex &&
          drawing.map((vertex, index) => (
            <Marker
              key={`vertex-${index}`}
              position={vertex}
              icon={VERTEX_ICON}
              draggable
              title={`${index + 1}`}
              eventHandlers={{
                dragend: (event) => {
                  const { lat, lng } = (event.target as LeafletMarker).getLatLng();
                  onMoveVertex(index, [rounded(lat), rounded(lng)]);
                },
              }}
            />
          ))}
        {!onMoveVertex &&
          drawing.map((vertex, index) => (
            <CircleMarker
              key={`${vertex[0]},${vertex[1]},${index}`}
              center={vertex}
              radius={5}
              pathOptions={{ color: '#e65100', fillColor: '#fff', fillOpacity: 1, weight: 2 }}
            />
          ))}
        {points.map((point) => (
          <CircleMarker
            key={`${point.id}:${point.selected}`}
            center={[point.latitude, point.longitude]}
            radius={point.selected ? 9 : 6}
            pathOptions={{
              color: point.selected ? '#e65100' : point.converted ? '#2e7d32' : '#1565c0',
              fillColor: point.selected ? '#ff9800' : point.converted ? '#66bb6a' : '#64b5f6',
              fillOpacity: 0.9,
              weight: point.selected ? 3 : 1.5,
            }}
            className={`generator-point${point.selected ? ' is-selected' : ''}`}
            eventHandlers={{ click: () => onTogglePoint?.(point.id) }}
          >
            <Tooltip>{point.label}</Tooltip>
          </CircleMarker>
        ))}
      </MapContainer>
    </Box>
  );
}
