import type { Db } from '../../../server/db/adapter.ts';

const RECORDS_MD5 = `SELECT md5(coalesce(string_agg(resource || '/' || key || '@' || version || doc::text, ',' ORDER BY resource, key), ''))
  FROM records`;

/**
 * A fingerprint of every stored record (resource, key, version and document, as an md5) and of
 * the number of audit entries: a refused call must leave it unchanged.
 *
 * The md5 reads the whole records table, which grows with the demo seed. A row trigger installed
 * in the test's own database counts every committed change to `records` (a rolled-back write rolls
 * its count back): while the count has not moved the records are the same, so the last md5 is
 * returned without reading them again; when it moved, the md5 is computed afresh. The fingerprint
 * is the same as computing the md5 every time; only the cost differs.
 */
export async function recordsFingerprint(db: Db): Promise<() => Promise<{ records: string; audit: string }>> {
  await db.query('CREATE TABLE test_records_changes (n bigint NOT NULL)');
  await db.query('INSERT INTO test_records_changes (n) VALUES (0)');
  await db.query(`CREATE FUNCTION test_count_records_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE test_records_changes SET n = n + 1;
      RETURN NULL;
    END $$`);
  await db.query(`CREATE TRIGGER test_records_changed AFTER INSERT OR UPDATE OR DELETE ON records
    FOR EACH ROW EXECUTE FUNCTION test_count_records_change()`);
  await db.query(`CREATE TRIGGER test_records_truncated AFTER TRUNCATE ON records
    FOR EACH STATEMENT EXECUTE FUNCTION test_count_records_change()`);

  let last: { changes: string; records: string } | undefined;
  return async () => {
    const found = await db.query<{ changes: string; audit: string }>(
      `SELECT (SELECT n::text FROM test_records_changes) AS changes, (SELECT count(*)::text FROM audit_log) AS audit`,
    );
    const { changes, audit } = found.rows[0];
    if (last?.changes !== changes) {
      // The count and the md5 in one statement: both see the same committed state.
      const fresh = await db.query<{ changes: string; records: string }>(
        `SELECT (SELECT n::text FROM test_records_changes) AS changes, (${RECORDS_MD5}) AS records`,
      );
      last = fresh.rows[0];
    }
    return { records: last.records, audit };
  };
}
