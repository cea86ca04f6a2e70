import {
  DEFAULT_ROW_LIMIT,
  IMPORT_SOURCES,
  importMessages,
  importModel,
  looksLikeFormula,
  repeatTracker,
} from '../../src/schema/bulk-import.ts';
import type { FieldErrors } from '../../src/contract/errors.ts';
import type { Db } from '../db/adapter.ts';
import type { ImportResponse } from '../../src/contract/responses.ts';
import type { Doc } from './record-store.ts';
import type { OpnameContext } from './resource-rules.ts';
import { badRequest } from './http-error.ts';

/** What a resource adds to the generic import (service points: stored duplicates, indexed addresses). */
export interface BulkImportHooks {
  /**
   * Called once with the batch before any row is checked: gives the rows to check (completed, e.g. with
   * the address index's id) and a check of each valid row against what is stored, in the request's terms.
   */
  prepare?(ctx: OpnameContext, rows: Doc[]): Promise<{ rows: Doc[]; stored?: (record: Doc) => FieldErrors }>;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase() : undefined);
const coordinate = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** The stored records of `resource` (those `where` keeps) that already hold one of the batch's names or coordinates. */
async function storedDuplicates(db: Db, resource: string, where: string, rows: Doc[]) {
  const names = [...new Set(rows.map((row) => text(row.name)).filter((name): name is string => Boolean(name)))];
  const latitudes = [...new Set(rows.map((row) => coordinate(row.latitude)).filter((lat) => lat !== undefined))];
  const kept = `resource = $2 AND (${where})`;
  const byName = await db.query<{ key: string; name: string }>(
    `SELECT key, lower(btrim(doc->>'name')) AS name FROM records WHERE ${kept} AND lower(btrim(doc->>'name')) = ANY($1::text[])`,
    [names, resource],
  );
  const byPlace = await db.query<{ key: string; latitude: number; longitude: number }>(
    `SELECT key, (doc->>'latitude')::float8 AS latitude, (doc->>'longitude')::float8 AS longitude FROM records
     WHERE ${kept} AND jsonb_typeof(doc->'latitude') = 'number' AND (doc->>'latitude')::float8 = ANY($1::float8[])`,
    [latitudes, resource],
  );
  return {
    names: new Map(byName.rows.map((row) => [row.name, Number(row.key)])),
    places: new Map(byPlace.rows.map((row) => [`${row.latitude}|${row.longitude}`, Number(row.key)])),
  };
}

/**
 * Spec 02 §5, "duplicate names or coordinates flagged": a row whose name (case and outer spaces aside),
 * or pair of coordinates, a stored record of `resource` already has is flagged as existing
 * (`import.errors.exists`, kind repeated). `where` is SQL on `doc` keeping the records that count
 * (a terminated service point frees its name and place).
 */
export function storedNamesAndPlaces(resource: string, where = 'true'): BulkImportHooks {
  return {
    async prepare(ctx, rows) {
      const { names, places } = await storedDuplicates(ctx.db, resource, where, rows);
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
  };
}

/**
 * `POST webtool/<endpoint>` `{ opname: 'bulk_import', data: [...rows], fileName?, import_from?, is_toggle_enabled? }`:
 * every row goes through the write pipeline (tenancy, schema, formula cells, repeats in the batch,
 * the resource's rules, which see the rows inserted before it) in one transaction; one bad row and
 * nothing is written.
 */
export function bulkImport({
  maxRows = DEFAULT_ROW_LIMIT,
  hooks = {},
}: { maxRows?: number; hooks?: BulkImportHooks } = {}) {
  return async (ctx: OpnameContext, body: Doc): Promise<ImportResponse> => {
    const { data } = body;
    if (!Array.isArray(data)) throw badRequest('gateway.rows_expected');
    if (!data.length) throw badRequest('gateway.rows_empty');
    if (data.length > maxRows) {
      throw badRequest('import.state.row_limit_exceeded', { count: maxRows });
    }
    const notObject = data.findIndex((row) => !row || typeof row !== 'object' || Array.isArray(row));
    if (notObject >= 0) throw badRequest('gateway.row_not_object', { row: notObject + 1 });
    for (const field of ['fileName', 'import_from'] as const) {
      if (body[field] !== undefined && typeof body[field] !== 'string')
        throw badRequest('gateway.text_expected', { name: field });
    }
    if (body.import_from !== undefined && !(IMPORT_SOURCES as readonly unknown[]).includes(body.import_from)) {
      throw badRequest('gateway.one_of', { name: 'import_from', values: IMPORT_SOURCES.join(', ') });
    }
    if (body.is_toggle_enabled !== undefined && typeof body.is_toggle_enabled !== 'boolean') {
      throw badRequest('gateway.boolean_expected', { field: 'is_toggle_enabled' });
    }

    // `x-resource.bulkImport.toggle`: the boolean field `is_toggle_enabled` sets on every row.
    const toggle = ctx.resource.importToggle;
    const toggled = (data as Doc[]).map((row) => (toggle && body.is_toggle_enabled ? { ...row, [toggle]: true } : row));
    const { rows, stored } = (await hooks.prepare?.(ctx, toggled)) ?? { rows: toggled };
    const model = importModel(ctx.resource);
    const repeats = repeatTracker(model);
    const imported = await ctx.writes.importRows(rows, {
      problems(row) {
        const errors: FieldErrors = {};
        for (const [field, value] of Object.entries(row)) {
          if (typeof value === 'string' && looksLikeFormula(value)) errors[field] = { message: importMessages.formula };
          // `x-import.maxLength`: the cell's text, as the file gave it (spec 02 §5: a ticket's ids at most 10 long).
          const limit = model.nameLimits[field];
          if (limit !== undefined && value !== undefined && value !== null && String(value).length > limit) {
            errors[field] ??= { message: 'validation.max_length', args: { max: limit } };
          }
        }
        return errors;
      },
      afterValidation(record, line) {
        const errors: FieldErrors = {};
        for (const [field, error] of Object.entries(repeats(record, line))) {
          errors[field] = { message: error.message, args: error.args };
        }
        for (const [field, error] of Object.entries(stored?.(record) ?? {})) errors[field] ??= error;
        return errors;
      },
    });
    return { success: true, imported };
  };
}
