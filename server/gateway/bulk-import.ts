import {
  DEFAULT_ROW_LIMIT,
  importMessages,
  importModel,
  looksLikeFormula,
  repeatTracker,
} from '../../src/schema/bulk-import.ts';
import type { Doc } from './record-store.ts';
import { insertRecord, nextId } from './record-writes.ts';
import type { OpnameContext, RuleContext } from './resource-rules.ts';
import { propertyType, withDefaults, writableFields } from './resource-registry.ts';
import { badRequest, HttpError } from './http-error.ts';
import { ownedByCaller, scopeFor } from './tenancy.ts';

export interface FieldError {
  message: string;
  args?: object;
}

export interface RowErrors {
  /** Index in `data`. */
  index: number;
  /** The row's line in the file it came from, the header being line 1. */
  line: number;
  errors: Record<string, FieldError>;
}

/**
 * `POST webtool/<endpoint>` `{ opname: 'bulk_import', data: [...rows], fileName?, import_from?, is_toggle_enabled? }`:
 * every row is checked (tenancy, schema, formula cells, repeats in the batch, the resource's rules,
 * which see the rows inserted before it) in one transaction; one bad row and nothing is written.
 */
export function bulkImport({ maxRows = DEFAULT_ROW_LIMIT }: { maxRows?: number } = {}) {
  return async (ctx: OpnameContext, body: Doc) => {
    const { data } = body;
    if (!Array.isArray(data)) throw badRequest('data must be an array of rows.');
    if (!data.length) throw badRequest('data must hold at least one row.');
    if (data.length > maxRows) {
      throw badRequest(`Maximum allowed row count is ${maxRows}`, {
        message_key: 'import.state.row_limit_exceeded',
        args: { count: maxRows },
      });
    }
    const notObject = data.findIndex((row) => !row || typeof row !== 'object' || Array.isArray(row));
    if (notObject >= 0) throw badRequest(`Row ${notObject + 1} of data is not an object.`);
    for (const field of ['fileName', 'import_from'] as const) {
      if (body[field] !== undefined && typeof body[field] !== 'string') throw badRequest(`${field} must be a string.`);
    }
    if (body.is_toggle_enabled !== undefined && typeof body.is_toggle_enabled !== 'boolean') {
      throw badRequest('is_toggle_enabled must be true or false.');
    }

    const { resource, access } = ctx;
    // `x-resource.bulkImport.toggle`: the boolean field `is_toggle_enabled` sets on every row.
    const toggle = resource.importToggle;
    const rows = (data as Doc[]).map((row) => (toggle && body.is_toggle_enabled ? { ...row, [toggle]: true } : row));
    const scope = scopeFor(access, resource);
    // Tenancy first, for the whole batch: a row for another owner refuses the request (403).
    const owned = rows.map((row) =>
      ownedByCaller(scope, resource, withDefaults(resource, writableFields(resource, row))),
    );
    const repeats = repeatTracker(importModel(resource));
    const idIsNumeric = propertyType(resource, resource.id) === 'integer';
    const actor = { username: access.caller.username, partnerType: access.partnerType, partner: access.partner };

    return ctx.db.transaction(async (tx) => {
      const ruleContext: RuleContext = { tx, access, resource, resources: ctx.resources };
      const rowErrors: RowErrors[] = [];
      let imported = 0;
      for (const [index, row] of owned.entries()) {
        const line = index + 2;
        const errors: Record<string, FieldError> = {};
        for (const [field, value] of Object.entries(row)) {
          if (typeof value === 'string' && looksLikeFormula(value)) errors[field] = { message: importMessages.formula };
        }
        const result = ctx.validate({ ...row, ...(idIsNumeric ? { [resource.id]: 1 } : {}) });
        for (const [field, error] of Object.entries(result.errors)) errors[field] ??= error;
        if (!Object.keys(errors).length) {
          for (const [field, error] of Object.entries(repeats(result.data, line))) {
            errors[field] = { message: error.message, args: error.args };
          }
        }
        if (Object.keys(errors).length) {
          rowErrors.push({ index, line, errors });
          continue;
        }
        let doc: Doc;
        try {
          doc = (await ctx.rules.beforeWrite?.(ruleContext, result.data, undefined)) ?? result.data;
        } catch (error) {
          const fieldErrors = error instanceof HttpError ? error.details.errors : undefined;
          if (error instanceof HttpError && error.status === 422 && fieldErrors && typeof fieldErrors === 'object') {
            rowErrors.push({ index, line, errors: fieldErrors as Record<string, FieldError> });
            continue;
          }
          throw error;
        }
        // Once a row failed nothing will be kept, but the later rows are still checked.
        if (rowErrors.length) continue;
        const withId = idIsNumeric ? { ...doc, [resource.id]: await nextId(tx, resource) } : doc;
        await insertRecord(tx, resource, actor, String(withId[resource.id]), withId);
        imported += 1;
      }
      if (rowErrors.length) {
        throw new HttpError(422, 'Save failed, check the fields in error state', { row_errors: rowErrors });
      }
      return { success: true, imported };
    });
  };
}
