import Supercluster from 'supercluster';
import type { MapPoint } from '../../contract/service-point-map.ts';

/** What a cluster carries: how many points and how many of them have open alerts or tickets. */
export interface ClusterProps {
  point?: MapPoint;
  busy: number;
}

export type MapFeature = Supercluster.PointFeature<ClusterProps> | Supercluster.ClusterFeature<ClusterProps>;

/** A point with open alerts or tickets (drawn as a diamond with "!", counted in its cluster). */
export const hasOpenWork = (point: MapPoint) => (point.open_alerts ?? 0) > 0 || (point.open_tickets ?? 0) > 0;

/**
 * The network map's clustering (issue 31.3): supercluster over every point, built once per answer; the
 * map asks it for the clusters of its view at each move, which stays fast for 100,000 points.
 */
export function clusterIndex(points: readonly MapPoint[]): Supercluster<ClusterProps, ClusterProps> {
  const index = new Supercluster<ClusterProps, ClusterProps>({
    radius: 60,
    maxZoom: 16,
    map: (props) => ({ busy: props.busy }),
    reduce: (accumulated, props) => {
      accumulated.busy += props.busy;
    },
  });
  index.load(
    points.map((point) => ({
      type: 'Feature' as const,
      geometry: { type: 'Point' as const, coordinates: [point.lng, point.lat] },
      properties: { point, busy: hasOpenWork(point) ? 1 : 0 },
    })),
  );
  return index;
}

/** Status colours of the map and its legend (ServicePointStatus codes); the legend names each one too. */
export const STATUS_COLOURS: Readonly<Record<number, string>> = {
  0: '#9e9e9e',
  1: '#7e57c2',
  2: '#5c6bc0',
  3: '#29b6f6',
  4: '#26a69a',
  5: '#ffca28',
  6: '#ff7043',
  7: '#2e7d32',
  8: '#6d4c41',
  9: '#424242',
};
export const statusColour = (status: number | null) =>
  status === null ? '#9e9e9e' : (STATUS_COLOURS[status] ?? '#9e9e9e');
