import { useEffect, useMemo, useRef, useState } from 'react';
import { Box } from '@mui/material';
import { divIcon, type FitBoundsOptions, type LatLngBounds, type LatLngBoundsExpression } from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { CircleMarker, MapContainer, Marker, Popup, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import type { MapPoint } from '../../contract/service-point-map.ts';
import { MAP_TILE_ATTRIBUTION, MAP_TILE_URL } from '../../schema/ui/address/map-settings.ts';
import { clusterIndex, hasOpenWork, statusColour, type MapFeature } from './map-clusters.ts';
import { PointPopup } from './point-popup.tsx';

/** How the view fits the points: at once, not animated, no closer than a street's scale. */
const FIT: FitBoundsOptions = { padding: [24, 24], maxZoom: 14, animate: false };

export interface NetworkMapProps {
  label: string;
  points: readonly MapPoint[];
  centre: [number, number];
  /** Words of the popups and cluster labels, in the user's language. */
  words: {
    status(status: number | null): string;
    cluster(count: number, busy: number): string;
    alerts(count: number): string;
    tickets(count: number): string;
    open: string;
  };
}

/** A cluster: a round badge with its count, ringed red with a "!" when some of its points have open work. */
function clusterIcon(count: number, busy: number) {
  const size = count < 100 ? 34 : count < 1000 ? 42 : 50;
  return divIcon({
    className: 'network-cluster',
    iconSize: [size, size],
    html:
      `<span style="display:flex;align-items:center;justify-content:center;width:${size}px;height:${size}px;` +
      `border-radius:50%;background:rgba(21,101,192,.85);color:#fff;font:600 12px/1 sans-serif;` +
      `border:3px solid ${busy ? '#c62828' : '#fff'};box-sizing:border-box">${count}${busy ? '<sup>!</sup>' : ''}</span>`,
  });
}

/** A point with open alerts or tickets: a diamond in its status colour with "!" (not colour alone). */
function busyIcon(colour: string) {
  return divIcon({
    className: 'network-point network-point-busy',
    iconSize: [18, 18],
    html:
      `<span style="display:flex;align-items:center;justify-content:center;width:14px;height:14px;margin:2px;` +
      `transform:rotate(45deg);background:${colour};border:2px solid #c62828;box-sizing:border-box">` +
      `<b style="transform:rotate(-45deg);color:#fff;font:700 10px/1 sans-serif">!</b></span>`,
  });
}

/** Fits the view to the points when they change (a new filter), at once, and again when the map's size settles. */
function FitPoints({ points, centre }: { points: readonly MapPoint[]; centre: [number, number] }) {
  const map = useMap();
  // What the view was fitted to, until the user moves the map themselves.
  const fitted = useRef<LatLngBoundsExpression>(undefined);
  useMapEvents({ dragstart: () => (fitted.current = undefined) });
  useEffect(() => {
    if (!points.length) {
      fitted.current = undefined;
      map.setView(centre, 6, { animate: false });
      return;
    }
    let [south, west, north, east] = [90, 180, -90, -180];
    for (const point of points) {
      south = Math.min(south, point.lat);
      north = Math.max(north, point.lat);
      west = Math.min(west, point.lng);
      east = Math.max(east, point.lng);
    }
    fitted.current = [
      [south, west],
      [north, east],
    ];
    map.fitBounds(fitted.current, FIT);
  }, [map, points, centre]);
  useEffect(() => {
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => {
      map.invalidateSize();
      if (fitted.current) map.fitBounds(fitted.current, FIT);
    });
    observer.observe(map.getContainer());
    return () => observer.disconnect();
  }, [map]);
  return null;
}

/** The clusters and points of the view, asked of the index at each move. */
function Clusters({ points, words }: Pick<NetworkMapProps, 'points' | 'words'>) {
  const map = useMap();
  const index = useMemo(() => clusterIndex(points), [points]);
  const [view, setView] = useState<{ bounds: LatLngBounds; zoom: number }>(() => ({
    bounds: map.getBounds(),
    zoom: map.getZoom(),
  }));
  useMapEvents({ moveend: () => setView({ bounds: map.getBounds(), zoom: map.getZoom() }) });
  // The zoom on the map's element, for a reader of the page (the browser tests) to follow.
  useEffect(() => {
    map.getContainer().dataset.zoom = String(view.zoom);
  }, [map, view.zoom]);
  const features: MapFeature[] = useMemo(() => {
    const { bounds, zoom } = view;
    return index.getClusters(
      [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()],
      Math.round(zoom),
    ) as MapFeature[];
  }, [index, view]);

  return (
    <>
      {features.map((feature) => {
        const [lng, lat] = feature.geometry.coordinates;
        if ('cluster' in feature.properties && feature.properties.cluster) {
          const { cluster_id: id, point_count: count } = feature.properties as {
            cluster_id: number;
            point_count: number;
          };
          return (
            <Marker
              key={`c${id}`}
              position={[lat, lng]}
              icon={clusterIcon(count, feature.properties.busy)}
              title={words.cluster(count, feature.properties.busy)}
              alt={words.cluster(count, feature.properties.busy)}
              eventHandlers={{
                click: () =>
                  map.setView([lat, lng], Math.min(index.getClusterExpansionZoom(id), 18), { animate: false }),
              }}
            />
          );
        }
        const point = feature.properties.point!;
        const colour = statusColour(point.status);
        const popup = (
          <Popup>
            <PointPopup point={point} words={words} />
          </Popup>
        );
        return hasOpenWork(point) ? (
          <Marker
            key={`p${point.id}`}
            position={[lat, lng]}
            icon={busyIcon(colour)}
            title={point.name}
            alt={point.name}
          >
            {popup}
          </Marker>
        ) : (
          <CircleMarker
            key={`p${point.id}`}
            center={[lat, lng]}
            radius={7}
            className="network-point"
            pathOptions={{ color: '#fff', weight: 1.5, fillColor: colour, fillOpacity: 0.95 }}
          >
            {popup}
          </CircleMarker>
        );
      })}
    </>
  );
}

/**
 * The network map (issue 31.3): every service point of the list's filters, clustered (supercluster), the
 * single points drawn on a canvas in their status colour, those with open work as a diamond with "!".
 * Without a tile server configured (map-settings.ts) the background is plain and no outside host is called.
 */
export default function NetworkMap({ label, points, centre, words }: NetworkMapProps) {
  return (
    <Box
      role="region"
      aria-label={label}
      data-testid="network-map"
      data-points={points.length}
      sx={{
        height: { xs: 'calc(100vh - 260px)', md: 'calc(100vh - 210px)' },
        minHeight: 360,
        width: '100%',
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        overflow: 'hidden',
      }}
    >
      <MapContainer
        center={centre}
        zoom={6}
        preferCanvas
        style={{ height: '100%', width: '100%' }}
        attributionControl={Boolean(MAP_TILE_URL)}
      >
        {MAP_TILE_URL && <TileLayer url={MAP_TILE_URL} attribution={MAP_TILE_ATTRIBUTION} />}
        <FitPoints points={points} centre={centre} />
        <Clusters points={points} words={words} />
      </MapContainer>
    </Box>
  );
}
