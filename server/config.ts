import path from 'node:path';
import { localIdentity } from '../src/contract/auth-settings.ts';
import { defaultPoolSettings, type PoolSettings } from './db/adapter.ts';
import { isSeedSize, type SeedSize } from './seed/seed-size.ts';

/** Identity settings shared by the stand-in, the gateway and the app's local environment. */
export const identitySettings = {
  ...localIdentity,
  jwksPath: '/__identity/.well-known/jwks.json',
  /** The only redirect and logout address the hosted UI accepts, on the caller's own origin. */
  oauthCallbackPath: '/callback',
  /** Authorization codes are single-use and live 5 minutes. */
  authorizationCodeTtl: 5 * 60,
  /** Lifetimes in seconds. */
  idTokenTtl: 3600,
  refreshTokenTtl: 30 * 24 * 3600,
  credentialsTtl: 3600,
  codeTtl: 5 * 60,
  /** How long a sign-in may wait between InitiateAuth and the next answer (SRP, new password). */
  authSessionTtl: 10 * 60,
  /** Forgot-password codes, as Cognito: one hour. */
  resetCodeTtl: 60 * 60,
  /** Wrong emailed codes in a row before the account is blocked. */
  maxCodeAttempts: 3,
  blockSeconds: 2 * 60,
  /**
   * Wrong passwords, as Cognito throttles them: past the free ones in a row, each failure locks the
   * user, or the client address, for twice as long as the one before, up to the cap. An address is
   * shared by an office, so it gets more free ones. Failures older than the memory are forgotten.
   */
  passwordAttempts: {
    freeFailuresPerUser: 3,
    freeFailuresPerAddress: 10,
    firstLockoutSeconds: 15,
    maxLockoutSeconds: 15 * 60,
    memorySeconds: 60 * 60,
  },
  temporaryPasswordDays: 14,
  /** Default issuer base of the tokens; the identity pool accepts Logins keyed by it. */
  issuerBase: 'https://cognito-idp.local',
} as const;

export interface ServerConfig {
  port: number;
  host: string;
  databaseUrl?: string;
  /** Connections to a PostgreSQL server (DATABASE_URL); PGlite has one, in the process. */
  pool: PoolSettings;
  dataDir: string;
  /** Local mode exposes the dev outbox; never on in production. */
  local: boolean;
  distDir: string;
  logLevel: string;
  /** Gateway processes sharing the port (WORKERS); more than one needs DATABASE_URL. */
  workers: number;
  /** Background jobs: a job whose process stopped renewing its lease is taken over after this (JOB_LEASE_SECONDS). */
  jobLeaseSeconds: number;
  /** How often each process looks for webhook events due for delivery (WEBHOOK_DISPATCH_MS). */
  webhookDispatchMs: number;
  /** The network a first start seeds into an empty database (SEED_SIZE): the demo's, or the tests' smaller one. */
  seedSize: SeedSize;
}

/**
 * The shortest lease: longer than the webhook worker's receiver timeout (10 s), so that a live process still waiting
 * for a slow receiver never loses its delivery to another process.
 */
export const MIN_JOB_LEASE_SECONDS = 15;

const MAX_WORKERS = 64;

/** Why the gateway cannot start with these settings, in words for whoever typed them; undefined if it can. */
export function configProblem(config: ServerConfig): string | undefined {
  if (!Number.isInteger(config.workers) || config.workers < 1 || config.workers > MAX_WORKERS) {
    return `WORKERS must be a whole number from 1 to ${MAX_WORKERS} (gateway processes sharing the port).`;
  }
  if (config.workers > 1 && !config.databaseUrl) {
    return (
      `WORKERS=${config.workers} needs a PostgreSQL server: set DATABASE_URL. The embedded database ` +
      '(PGlite) belongs to one process, so it runs with one gateway process only.'
    );
  }
  return undefined;
}

/** A whole number setting at least `min`, or its default when unset; anything else stops the start. */
function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const text = env[name];
  if (text === undefined || text.trim() === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be a whole number of at least ${min}, not '${text}'.`);
  }
  return value;
}

/** SEED_SIZE: `demo` (the default) or `test`; anything else stops the start. */
function seedSize(text: string | undefined): SeedSize {
  if (text === undefined || text.trim() === '') return 'demo';
  if (!isSeedSize(text.trim())) throw new Error(`SEED_SIZE must be demo or test, not '${text}'.`);
  return text.trim() as SeedSize;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const root = process.cwd();
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    pool: {
      size: wholeNumber(env, 'DATABASE_POOL_SIZE', defaultPoolSettings.size, 1),
      statementTimeoutMs: wholeNumber(env, 'DATABASE_STATEMENT_TIMEOUT_MS', defaultPoolSettings.statementTimeoutMs, 0),
      connectTimeoutMs: wholeNumber(env, 'DATABASE_CONNECT_TIMEOUT_MS', defaultPoolSettings.connectTimeoutMs, 1),
    },
    dataDir: path.resolve(root, env.DATA_DIR ?? 'data/pglite'),
    local: env.WEBTOOL_LOCAL !== 'false',
    distDir: path.resolve(root, 'dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    workers: env.WORKERS?.trim() ? Number(env.WORKERS) : 1,
    jobLeaseSeconds: wholeNumber(env, 'JOB_LEASE_SECONDS', 60, MIN_JOB_LEASE_SECONDS),
    webhookDispatchMs: wholeNumber(env, 'WEBHOOK_DISPATCH_MS', 5000, 100),
    seedSize: seedSize(env.SEED_SIZE),
  };
}
