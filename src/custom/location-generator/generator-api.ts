import { useGateway } from '../../schema/ui/gateway-api.ts';
import type { GatewayRequest } from '../../contract/gateway.ts';

/** The location generator's gateway calls (server/gateway/location-generator/routes.ts). */
export const GENERATOR = 'webtool/location_generator';

/** The location generator's react-query keys: `all()` refreshes every one of them. */
export const generatorKeys = {
  all: () => ['location-generator'] as const,
  areas: () => ['location-generator', 'areas'] as const,
  zones: () => ['location-generator', 'zones'] as const,
  municipalities: (country: string) => ['location-generator', 'municipalities', country] as const,
  /** Every reports list (active and archived). */
  reports: () => ['location-generator', 'reports'] as const,
  reportList: (archived: boolean) => ['location-generator', 'reports', archived] as const,
  locations: (reportId: string) => ['location-generator', 'locations', reportId] as const,
};

export type { Polygon, ScoreParts } from '../../contract/location-generator.ts';
import type { Polygon, ScoreParts } from '../../contract/location-generator.ts';

export interface Area {
  area_id: number;
  name: string;
  country: string;
  municipality_id: number | null;
  geometry: Polygon;
  version: number;
  zones: number;
}

export interface Zone {
  zone_id: number;
  area_id: number;
  name: string;
  geometry: Polygon;
  version: number;
}

export type ReportStatus = 'queued' | 'running' | 'finished' | 'failed';
export type ConversionStatus = ReportStatus | 'partially_finished';

export interface Criteria {
  radius_m: number;
  min_distance_m: number;
  max_candidates: number;
  population_weight: number;
}

export interface Report {
  report_id: number;
  name: string;
  country: string;
  area_ids: number[];
  zone_ids: number[];
  criteria: Criteria;
  status: ReportStatus;
  message: string | null;
  archived: boolean;
  created_by: string;
  created_at: string;
  finished_at: string | null;
  locations: number;
  converted: number;
  area_names: string | null;
}

export interface GeneratedLocation {
  location_id: number;
  rank: number;
  zone_id: number | null;
  zone_name: string | null;
  address_id: number | null;
  label: string;
  latitude: number;
  longitude: number;
  score: number;
  parts: ScoreParts;
  service_point_id: number | null;
  conversion_status: 'converted' | 'failed' | null;
  conversion_message: string | null;
}

export interface ConversionResult {
  location_id: number;
  status: 'converted' | 'failed';
  service_point_id?: number;
  message_key?: string;
  args?: Record<string, unknown>;
}

export interface Conversion {
  conversion_id: number;
  status: ConversionStatus;
  done: number;
  total: number;
  results: ConversionResult[];
  message: string | null;
}

export interface ReportPage {
  report: Omit<Report, 'locations' | 'converted' | 'area_names' | 'created_by'>;
  locations: GeneratedLocation[];
  regions: { kind: 'area' | 'zone'; id: number; name: string; geometry: Polygon }[];
  conversion: Conversion | null;
}

export type GeneratorCall = <T>(request: GatewayRequest) => Promise<T>;

/** The data provider's plain gateway call, typed. */
export function useGeneratorCall(): GeneratorCall {
  const dataProvider = useGateway();
  return (request) => dataProvider.call(request);
}

export const isBusy = (status: ConversionStatus | undefined) => status === 'queued' || status === 'running';

export const STATUS_COLOURS: Record<ConversionStatus, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  queued: 'default',
  running: 'info',
  finished: 'success',
  failed: 'error',
  partially_finished: 'warning',
};
