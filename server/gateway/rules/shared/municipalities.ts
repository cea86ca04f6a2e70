import type { Db } from '../../../db/adapter.ts';
import { refusedFields } from '../../write-pipeline.ts';

/**
 * Spec 02 §7 `lists?type=municipality&country_iso=`: the municipalities are those of the address index,
 * by country. A service point names one (by name) and a location one (by id) of its own country; a
 * value stored before stays while it is not changed, so older records remain editable.
 */

export async function assertServicePointMunicipality(
  db: Db,
  doc: { municipality?: string; country?: string },
  before: { municipality?: string; country?: string } | undefined,
) {
  const name = doc.municipality?.trim();
  if (!name) return;
  if (before && before.municipality?.trim() === name && before.country === doc.country) return;
  const found = await db.query(
    `SELECT 1 FROM addresses WHERE country = $1 AND lower(municipality_name) = lower($2) LIMIT 1`,
    [doc.country ?? '', name],
  );
  if (!found.rows.length) throw refusedFields({ municipality: { message: 'validation.unknown_municipality' } });
}

export async function assertLocationMunicipality(
  db: Db,
  doc: { municipality_id?: number; country?: string },
  before: { municipality_id?: number; country?: string } | undefined,
) {
  if (doc.municipality_id === undefined || doc.municipality_id === null) return;
  if (before && before.municipality_id === doc.municipality_id && before.country === doc.country) return;
  const found = await db.query(`SELECT 1 FROM addresses WHERE country = $1 AND municipality_id = $2 LIMIT 1`, [
    doc.country ?? '',
    doc.municipality_id,
  ]);
  if (!found.rows.length) throw refusedFields({ municipality_id: { message: 'validation.unknown_municipality' } });
}
