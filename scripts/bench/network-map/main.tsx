import { createRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router-dom';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import NetworkMap from '../../../src/custom/service-point-map/network-map.tsx';
import type { MapPoint } from '../../../src/contract/service-point-map.ts';

/** Deterministic points over Denmark and southern Sweden, statuses and some open work, as the gateway sends them. */
function points(count: number): MapPoint[] {
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  return Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    name: `Service point ${index + 1}`,
    lat: 54.6 + random() * 3.4,
    lng: 8.1 + random() * 6.5,
    status: Math.floor(random() * 10),
    open_tickets: random() < 0.05 ? 1 : 0,
    open_alerts: random() < 0.03 ? 2 : 0,
  }));
}

const BIG = points(100_000);
const SMALL = points(2_400);
const words = {
  status: (status: number | null) => String(status),
  cluster: (count: number) => `${count}`,
  alerts: (count: number) => `${count} alerts`,
  tickets: (count: number) => `${count} tickets`,
  open: 'Open',
};

const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));

function host() {
  const element = document.createElement('div');
  element.style.cssText = 'width:1200px;height:800px';
  document.body.replaceChildren(element);
  return element;
}

declare global {
  interface Window {
    benchMap(kind: 'ours' | 'plain'): Promise<number>;
  }
}

/**
 * ours: the network map of 100,000 points (cluster index built, clusters of the view placed, painted);
 * plain: a Leaflet map with 2,400 plain circle markers on a canvas, painted.
 */
window.benchMap = async (kind) => {
  const element = host();
  const started = performance.now();
  if (kind === 'ours') {
    const root = createRoot(element);
    root.render(
      <MemoryRouter>
        <NetworkMap label="map" points={BIG} centre={[56, 11]} words={words} />
      </MemoryRouter>,
    );
    while (!element.querySelector('.network-cluster')) await frame();
    await frame();
    const took = performance.now() - started;
    root.unmount();
    return took;
  }
  const map = L.map(element, { preferCanvas: true }).setView([56, 11], 6);
  for (const point of SMALL) {
    L.circleMarker([point.lat, point.lng], {
      radius: 7,
      color: '#fff',
      weight: 1.5,
      fillColor: '#2e7d32',
      fillOpacity: 0.95,
    }).addTo(map);
  }
  await frame();
  await frame();
  const took = performance.now() - started;
  map.remove();
  return took;
};
