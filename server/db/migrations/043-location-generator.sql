-- The location generator (issue 29.4, 29.5): areas and zones drawn on a map, reports of candidate locations
-- computed over the population and competitor points below, and the bulk conversion of a report's locations
-- to service points. Geometry is GeoJSON (a Polygon's coordinates, [longitude, latitude] pairs); containment
-- and distances are computed by the gateway (server/gateway/location-generator/), no PostGIS.

-- Where people live: one point per address of the address index, with its residents (seeded).
CREATE TABLE generator_population (
  address_id integer PRIMARY KEY,
  country text NOT NULL,
  municipality_id integer,
  latitude double precision NOT NULL,
  longitude double precision NOT NULL,
  residents integer NOT NULL CHECK (residents >= 0)
);
CREATE INDEX generator_population_by_country ON generator_population (country, latitude, longitude);

-- Other networks' parcel lockers and counters (seeded).
CREATE TABLE generator_competitors (
  id serial PRIMARY KEY,
  country text NOT NULL,
  brand text NOT NULL,
  latitude double precision NOT NULL,
  longitude double precision NOT NULL
);
CREATE INDEX generator_competitors_by_country ON generator_competitors (country);

CREATE TABLE generator_areas (
  area_id serial PRIMARY KEY,
  name text NOT NULL,
  country text NOT NULL,
  municipality_id integer,
  geometry jsonb NOT NULL,
  version integer NOT NULL DEFAULT 1,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX generator_areas_name ON generator_areas (lower(name));

CREATE TABLE generator_zones (
  zone_id serial PRIMARY KEY,
  area_id integer NOT NULL REFERENCES generator_areas (area_id) ON DELETE CASCADE,
  name text NOT NULL,
  geometry jsonb NOT NULL,
  version integer NOT NULL DEFAULT 1,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX generator_zones_by_area ON generator_zones (area_id);

CREATE TABLE generator_reports (
  report_id serial PRIMARY KEY,
  name text NOT NULL,
  country text NOT NULL,
  area_ids integer[] NOT NULL,
  zone_ids integer[] NOT NULL DEFAULT '{}',
  criteria jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'running', 'finished', 'failed')),
  message text,
  archived boolean NOT NULL DEFAULT false,
  job_id uuid,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);

-- A report's candidate locations, best first, with the parts of their score.
CREATE TABLE generator_locations (
  location_id serial PRIMARY KEY,
  report_id integer NOT NULL REFERENCES generator_reports (report_id) ON DELETE CASCADE,
  rank integer NOT NULL,
  zone_id integer,
  address_id integer,
  label text NOT NULL,
  municipality_id integer,
  latitude double precision NOT NULL,
  longitude double precision NOT NULL,
  score double precision NOT NULL,
  parts jsonb NOT NULL,
  service_point_id integer,
  conversion_status text CHECK (conversion_status IN ('converted', 'failed')),
  conversion_message text
);
CREATE INDEX generator_locations_by_report ON generator_locations (report_id, rank);

-- A bulk conversion of a report's locations to service points. At most one is queued or running at a time.
CREATE TABLE generator_conversions (
  conversion_id serial PRIMARY KEY,
  report_id integer NOT NULL REFERENCES generator_reports (report_id) ON DELETE CASCADE,
  location_ids integer[] NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'running', 'finished', 'partially_finished', 'failed')),
  done integer NOT NULL DEFAULT 0,
  results jsonb NOT NULL DEFAULT '[]',
  message text,
  job_id uuid,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE UNIQUE INDEX generator_conversions_one_running ON generator_conversions ((true))
  WHERE status IN ('queued', 'running');
