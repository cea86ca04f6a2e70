import type { FieldErrors } from '../../../src/contract/errors.ts';
import { importMessages } from '../../../src/schema/bulk-import.ts';
import type { Db } from '../../db/adapter.ts';
import { bulkImport } from '../bulk-import.ts';
import type { Doc } from '../record-store.ts';
import type { OpnameContext } from '../resource-rules.ts';
import { SERVICE_POINTS } from './hardware-store.ts';

/**
 * The bulk import of service points (spec 02 §5, §7): the generic import (schema limits, formula cells,
 * repeats inside the file, `import_from`, `is_toggle_enabled` making test service points) plus two
 * checks against what is stored: a name, or a pair of coordinates, that a live service point already
 * has is flagged as existing (a terminated one frees its name and place).
 */

const text = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase() : undefined);
const coordinate = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** The live service points that already hold one of the batch's names or coordinates. */
async function storedDuplicates(db: Db, rows: Doc[]) {
  const names = [...new Set(rows.map((row) => text(row.name)).filter((name): name is string => Boolean(name)))];
  const latitudes = [...new Set(rows.map((row) => coordinate(row.latitude)).filter((lat) => lat !== undefined))];
  const live = `resource = '${SERVICE_POINTS}' AND coalesce((doc->>'is_terminated')::boolean, false) = false`;
  const byName = await db.query<{ key: string; name: string }>(
    `SELECT key, lower(btrim(doc->>'name')) AS name FROM records WHERE ${live} AND lower(btrim(doc->>'name')) = ANY($1::text[])`,
    [names],
  );
  const byPlace = await db.query<{ key: string; latitude: number; longitude: number }>(
    `SELECT key, (doc->>'latitude')::float8 AS latitude, (doc->>'longitude')::float8 AS longitude FROM records
     WHERE ${live} AND jsonb_typeof(doc->'latitude') = 'number' AND (doc->>'latitude')::float8 = ANY($1::float8[])`,
    [latitudes],
  );
  return {
    names: new Map(byName.rows.map((row) => [row.name, Number(row.key)])),
    places: new Map(byPlace.rows.map((row) => [`${row.latitude}|${row.longitude}`, Number(row.key)])),
  };
}

/** Imported rows take the address index's id in the service point rules (`service-point-address.ts`). */
export function servicePointBulkImport() {
  return bulkImport({
    hooks: {
      async prepare(ctx: OpnameContext, rows: Doc[]) {
        const { names, places } = await storedDuplicates(ctx.db, rows);
        const stored = (record: Doc): FieldErrors => {
          const errors: FieldErrors = {};
          const sameName = names.get(text(record.name) ?? '');
          if (sameName !== undefined) errors.name = { message: importMessages.exists, args: { id: sameName } };
          const samePlace = places.get(`${coordinate(record.latitude)}|${coordinate(record.longitude)}`);
          if (samePlace !== undefined) errors.latitude = { message: importMessages.exists, args: { id: samePlace } };
          return errors;
        };
        return { rows, stored };
      },
    },
  });
}
