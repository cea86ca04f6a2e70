/** `GET webtool/debug` `data` (the /debug page, operator company): versions and the caller's resolved access. */
export interface DebugInfo {
  gateway: { version: string; build: string; node: string; started_at: string };
  database: { engine: 'PGlite' | 'PostgreSQL'; server_version: string | null; last_migration: string | null };
  access: {
    username: string;
    partner_type: string;
    partner_id: string | null;
    role_name: string;
    super_admin: boolean;
    /** Feature ids the role grants. */
    permissions: number[];
    /** Each module the caller reaches, with its level (spec 01 §6). */
    levels: { feature: string; level: 'advance' | 'scout' | 'basic' | null }[];
    /** The feature options of its granted policies. */
    options: { feature_id: number; option: string; shown: boolean }[];
  };
}
