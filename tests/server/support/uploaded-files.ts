import type { Stack } from './stack.ts';

/** A stored upload as the browser fetches it from the gateway's `/uploads/` path. */
export async function fetchUpload(stack: Stack, url: string) {
  const response = await stack.app.inject({ method: 'GET', url });
  return { status: response.statusCode, headers: response.headers, text: response.body, bytes: response.rawPayload };
}

/** What the gateway stores and records for a resource: compared before and after a refused call. */
export async function storedState(stack: Stack, resource: string) {
  const found = await stack.db.query<{ uploads: string; audit: string; records: string }>(
    `SELECT (SELECT count(*)::text FROM uploads) AS uploads, (SELECT count(*)::text FROM audit_log) AS audit,
            (SELECT md5(string_agg(key || '@' || version, ',' ORDER BY key)) FROM records
             WHERE resource = $1) AS records`,
    [resource],
  );
  return found.rows[0];
}

/** The audit trail of one record, oldest first. */
export async function auditTrail(stack: Stack, resource: string, key: string | number) {
  const found = await stack.db.query<{ action: string; username: string; changes: Record<string, unknown> }>(
    `SELECT action, username, changes FROM audit_log WHERE resource = $1 AND key = $2 ORDER BY id`,
    [resource, String(key)],
  );
  return found.rows;
}
