import { readFileSync } from 'node:fs';
import { features, type FeatureIds } from '../../src/schema/features.ts';
import { accessLevel } from '../../src/schema/permissions.ts';
import type { DebugInfo } from '../../src/contract/debug-info.ts';
import type { CallerAccess } from './caller-access.ts';
import { noPermission } from './http-error.ts';
import type { SpecialRoute } from './webtool-routes.ts';

/**
 * `GET webtool/debug` (spec 01 §2.3 route /debug, operator company): what support asks for in a ticket:
 * the gateway's version and build, its runtime, the database's server version and last migration, and
 * the caller's access as the gateway resolved it (partner, role, each feature's level, feature options).
 * Never a secret: no token, key, connection string nor environment variable beyond the build's name.
 */

const packageVersion = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
const startedAt = new Date().toISOString();

/** The caller's access as the gateway reads it: its features by level, and the options its policies show. */
export function resolvedAccess(access: CallerAccess): DebugInfo['access'] {
  const levels = Object.entries(features as Record<string, FeatureIds>)
    .map(([feature, ids]) => ({ feature, level: accessLevel(access.permissions, ids) ?? null }))
    .filter((entry) => entry.level !== null);
  const options = access.permissions.policies
    .filter((policy) => policy.has_permission)
    .flatMap((policy) =>
      (policy.configurations ?? []).map((configuration) => ({
        feature_id: policy.feature_id,
        option: configuration.type,
        shown: configuration.show,
      })),
    );
  return {
    username: access.caller.username,
    partner_type: access.partnerType,
    partner_id: access.partner ?? null,
    role_name: access.role.role_name,
    super_admin: access.superAdmin,
    permissions: [...access.permissions.granted].sort((a, b) => a - b),
    levels,
    options,
  };
}

export const debugRoutes: Record<string, SpecialRoute> = {
  'GET debug': async ({ access, db }) => {
    if (!access.superAdmin && access.partnerType !== 'operator') throw noPermission();
    const server = await db.query<{ version: string }>('SELECT version() AS version');
    const migration = await db.query<{ name: string; applied_at: string }>(
      'SELECT name, applied_at FROM schema_migrations ORDER BY name DESC LIMIT 1',
    );
    const data: DebugInfo = {
      gateway: {
        version: packageVersion,
        build: process.env.COMMIT_VERSION ?? 'local',
        node: process.version,
        started_at: startedAt,
      },
      database: {
        engine: process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite',
        server_version: server.rows[0]?.version ?? null,
        last_migration: migration.rows[0]?.name ?? null,
      },
      access: resolvedAccess(access),
    };
    return { success: true, data };
  },
};
