import {
  DEFAULT_ROW_LIMIT,
  importMessages,
  importModel,
  looksLikeFormula,
  repeatTracker,
} from '../../src/schema/bulk-import.ts';
import type { FieldErrors } from '../../src/contract/errors.ts';
import type { ImportResponse } from '../../src/contract/responses.ts';
import type { Doc } from './record-store.ts';
import type { OpnameContext } from './resource-rules.ts';
import { badRequest } from './http-error.ts';

/**
 * `POST webtool/<endpoint>` `{ opname: 'bulk_import', data: [...rows], fileName?, import_from?, is_toggle_enabled? }`:
 * every row goes through the write pipeline (tenancy, schema, formula cells, repeats in the batch,
 * the resource's rules, which see the rows inserted before it) in one transaction; one bad row and
 * nothing is written.
 */
export function bulkImport({ maxRows = DEFAULT_ROW_LIMIT }: { maxRows?: number } = {}) {
  return async (ctx: OpnameContext, body: Doc): Promise<ImportResponse> => {
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

    // `x-resource.bulkImport.toggle`: the boolean field `is_toggle_enabled` sets on every row.
    const toggle = ctx.resource.importToggle;
    const rows = (data as Doc[]).map((row) => (toggle && body.is_toggle_enabled ? { ...row, [toggle]: true } : row));
    const repeats = repeatTracker(importModel(ctx.resource));
    const imported = await ctx.writes.importRows(rows, {
      problems(row) {
        const errors: FieldErrors = {};
        for (const [field, value] of Object.entries(row)) {
          if (typeof value === 'string' && looksLikeFormula(value)) errors[field] = { message: importMessages.formula };
        }
        return errors;
      },
      afterValidation(record, line) {
        const errors: FieldErrors = {};
        for (const [field, error] of Object.entries(repeats(record, line))) {
          errors[field] = { message: error.message, args: error.args };
        }
        return errors;
      },
    });
    return { success: true, imported };
  };
}
