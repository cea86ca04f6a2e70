import type { Db } from '../db/adapter.ts';
import { createSchemaRegistry } from '../../src/schema/ajv.ts';
import { validateRecord } from '../../src/schema/validate.ts';
import { loadResources, loadSchemas } from '../gateway/resource-registry.ts';
import { resourceRules } from '../gateway/rules/index.ts';
import { createWritePipeline } from '../gateway/write-pipeline.ts';
import { demoResidents } from '../gateway/location-generator/candidates.ts';
import { polygonOf, type Ring } from '../gateway/location-generator/geometry.ts';
import { municipalityRing, runConversion, runReport } from '../gateway/location-generator/routes.ts';
import { cities } from './geography.ts';

const BRANDS = ['ParcelNow', 'BoxIt', 'QuickDrop'];
const SUPER_ADMIN = { username: 'superadmin', groups: ['operator_infinity_superadmin'], via: 'sso' as const };

/** A square of `km` around a point, as a closed ring ([longitude, latitude]). */
function square(lat: number, lng: number, km: number): Ring {
  const dLat = km / 110.54;
  const dLng = km / (111.32 * Math.cos((lat * Math.PI) / 180));
  const round = (value: number) => Number(value.toFixed(6));
  const ring: Ring = [
    [round(lng - dLng), round(lat - dLat)],
    [round(lng + dLng), round(lat - dLat)],
    [round(lng + dLng), round(lat + dLat)],
    [round(lng - dLng), round(lat + dLat)],
  ];
  return [...ring, ring[0]];
}

/**
 * The location generator's data (issue 29.4, 29.7): residents at every address of the index and the
 * competitors' lockers (deterministic), two areas (København and Aarhus, from their municipalities) with
 * zones, and two reports computed over them: the København one converted to service points (through the
 * service points' own pipeline, as the super admin), the Aarhus one open.
 */
export async function seedLocationGenerator(db: Db) {
  const addresses = await db.query<{
    address_id: number;
    country: string;
    municipality_id: number | null;
    latitude: number;
    longitude: number;
  }>('SELECT address_id, country, municipality_id, latitude, longitude FROM addresses ORDER BY address_id');
  const rows = addresses.rows;
  await db.query(
    `INSERT INTO generator_population (address_id, country, municipality_id, latitude, longitude, residents)
     SELECT * FROM unnest($1::int[], $2::text[], $3::int[], $4::float8[], $5::float8[], $6::int[])`,
    [
      rows.map((row) => row.address_id),
      rows.map((row) => row.country),
      rows.map((row) => row.municipality_id),
      rows.map((row) => row.latitude),
      rows.map((row) => row.longitude),
      rows.map((row) => demoResidents(row.address_id)),
    ],
  );
  // About one competitor per 60 addresses, a few metres off the house it stands by.
  const competitors = rows.filter((row) => ((row.address_id * 7919) >>> 0) % 61 === 0);
  await db.query(
    `INSERT INTO generator_competitors (country, brand, latitude, longitude)
     SELECT * FROM unnest($1::text[], $2::text[], $3::float8[], $4::float8[])`,
    [
      competitors.map((row) => row.country),
      competitors.map((row) => BRANDS[row.address_id % BRANDS.length]),
      competitors.map((row) => Number((row.latitude + 0.0002).toFixed(6))),
      competitors.map((row) => Number((row.longitude + 0.0002).toFixed(6))),
    ],
  );

  const area = async (name: string, cityName: string, zones: [string, number, number, number][]) => {
    const cityIndex = cities.findIndex((city) => city.name === cityName);
    const city = cities[cityIndex];
    const ring = await municipalityRing(db, city.country, cityIndex + 1);
    const created = await db.query<{ area_id: number }>(
      `INSERT INTO generator_areas (name, country, municipality_id, geometry, created_by)
       VALUES ($1, $2, $3, $4, 'superadmin') RETURNING area_id`,
      [name, city.country, cityIndex + 1, JSON.stringify(polygonOf(ring))],
    );
    const areaId = created.rows[0].area_id;
    const zoneIds: number[] = [];
    for (const [zoneName, dLat, dLng, km] of zones) {
      const zone = await db.query<{ zone_id: number }>(
        `INSERT INTO generator_zones (area_id, name, geometry, created_by) VALUES ($1, $2, $3, 'superadmin')
         RETURNING zone_id`,
        [areaId, zoneName, JSON.stringify(polygonOf(square(city.lat + dLat, city.lng + dLng, km)))],
      );
      zoneIds.push(zone.rows[0].zone_id);
    }
    return { areaId, zoneIds, country: city.country };
  };
  const copenhagen = await area('København', 'København', [
    ['Indre By', 0, 0, 1.5],
    ['Nord', 0.03, 0, 1.2],
  ]);
  const aarhus = await area('Aarhus', 'Aarhus', [['Midtbyen', 0, 0, 2]]);

  const report = async (name: string, target: typeof copenhagen, criteria: Record<string, number>) => {
    const created = await db.query<{ report_id: number }>(
      `INSERT INTO generator_reports (name, country, area_ids, zone_ids, criteria, status, created_by)
       VALUES ($1, $2, $3, $4, $5, 'queued', 'superadmin') RETURNING report_id`,
      [name, target.country, [target.areaId], target.zoneIds, JSON.stringify(criteria)],
    );
    const id = created.rows[0].report_id;
    await runReport(db, id);
    return id;
  };
  const converted = await report('København centre and north', copenhagen, {
    radius_m: 500,
    min_distance_m: 400,
    max_candidates: 8,
    population_weight: 0.7,
  });
  await report('Aarhus Midtbyen', aarhus, {
    radius_m: 600,
    min_distance_m: 500,
    max_candidates: 10,
    population_weight: 0.6,
  });

  const locations = await db.query<{ location_id: number }>(
    'SELECT location_id FROM generator_locations WHERE report_id = $1 ORDER BY rank LIMIT 4',
    [converted],
  );
  const conversion = await db.query<{ conversion_id: number }>(
    `INSERT INTO generator_conversions (report_id, location_ids, status, created_by)
     VALUES ($1, $2, 'queued', 'superadmin') RETURNING conversion_id`,
    [converted, locations.rows.map((row) => row.location_id)],
  );
  const schemas = loadSchemas();
  const registry = createSchemaRegistry(schemas);
  const resources = loadResources(schemas);
  const writesOf = createWritePipeline({
    db,
    resources,
    validate: (resource, doc, { partial }) => validateRecord(registry, resource.schemaId, doc, { partial }),
    rules: resourceRules,
  });
  await runConversion(
    db,
    writesOf,
    resources,
    { conversion_id: conversion.rows[0].conversion_id, caller: SUPER_ADMIN },
    async () => undefined,
  );
}
