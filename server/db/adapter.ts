import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Pool, PoolClient } from 'pg';

export interface QueryResult<T> {
  rows: T[];
}

/**
 * The one storage interface of the gateway. PGlite (embedded) and a real PostgreSQL server
 * (through `pg`) both satisfy it with the same SQL.
 */
export interface Db {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<T>>;
  /**
   * Runs `fn` inside BEGIN/COMMIT; any throw rolls back. With `options.opening`, `fn` gets the opening statement's
   * rows (undefined where a wrapper of the database passes only the transaction on).
   */
  transaction<T>(
    fn: (tx: Db, opened?: Record<string, unknown>[]) => Promise<T>,
    options?: TransactionOptions,
  ): Promise<T>;
  close(): Promise<void>;
  /**
   * On a transaction's handle where the database can: runs the transaction's last statement and its COMMIT in one
   * round trip (a save two round trips rather than three; issue 32). The transaction is over once it
   * answers: a statement after it is refused, and a throw after it (a save that found its record moved on, which
   * wrote nothing) undoes nothing. A statement that fails, or a COMMIT that fails, leaves the transaction to roll
   * back as usual. Only the code that opened the transaction may call it (a transaction that joins another has no
   * commitWith), and only with a statement whose parameters are texts, numbers or nulls; else `query` then COMMIT.
   */
  commitWith?<T = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<QueryResult<T>>;
  /**
   * Receives the payloads NOTIFY sends on `channel` once their transaction commits (live updates,
   * server/gateway/live/). On PostgreSQL a connection of its own, opened again with backoff when lost:
   * `onLost` says so at once, `onResumed` once it listens again (payloads sent meanwhile may be missing).
   * Absent on a transaction's handle.
   */
  listen?(
    channel: string,
    onPayload: (payload: string) => void,
    onResumed?: () => void,
    onLost?: () => void,
  ): Promise<() => Promise<void>>;
}

export interface QueryOptions {
  /**
   * A statement of the hot paths (a record by key, a page through the sort keys, a save) whose plan does not
   * depend on its parameters: on PostgreSQL prepared once per connection and its plan kept (after five runs the
   * server may keep a generic one), where a statement sent plain is parsed and planned on every call (planning
   * was more than the run of a record read by key under `npm run load`, issue 32). PGlite ignores it. Not for a
   * statement that a partial index answers only for some values of a parameter (the lists' counts).
   */
  prepared?: boolean;
  /**
   * With `prepared`: the statement's plan made once without its parameters' values and kept (plan_cache_mode
   * force_generic_plan), for a statement whose best plan is the same whatever they are (a page through the sort
   * keys: an ordered index scan, then the records by key). The server keeps choosing a plan for each call there,
   * as the LIMIT and OFFSET it cannot see make the kept one look dearer: planning was 0.3-0.5 ms of a 0.8-1.1 ms
   * page under `npm run load` (issue 32). Sent as one query of three statements (SET, EXECUTE of the statement
   * the connection prepared with PREPARE, RESET): no round trip more. PGlite ignores it.
   */
  genericPlan?: boolean;
  /**
   * The statement's json and jsonb columns as the server writes them (text), not parsed: for an answer that
   * passes the documents on as they are (a list page), which would otherwise parse every document only for
   * the reply to serialise it again (issue 32).
   */
  jsonAsText?: boolean;
}

export interface TransactionOptions {
  /**
   * A read-only snapshot (REPEATABLE READ, READ ONLY): every statement sees the same committed state. Set by
   * the BEGIN itself, not by a SET TRANSACTION after it: one round trip less per list (each costs a socket
   * write and a wake-up of the server, the largest share of a list's time under load; issue 32).
   */
  readOnlySnapshot?: boolean;
  /**
   * Transaction-local settings (`set_config(name, value, true)`: who writes, for the triggers), sent with the BEGIN
   * in one round trip rather than as a statement of their own.
   */
  settings?: Record<string, string>;
  /**
   * The transaction's first statement, sent with the BEGIN in the same round trip (a save's read of the record it
   * changes: a save three round trips instead of four; issue 32). Its parameters are texts, written into the
   * statement as SQL literals; its rows are `fn`'s second argument.
   */
  opening?: OpeningStatement;
}

export interface OpeningStatement {
  /** One statement, its parameters `$1`, `$2`... as a prepared statement has them. */
  sql: string;
  params: string[];
}

const SETTING_NAME = /^[a-z_]+\.[a-z_]+$/;

/** The settings' set_config as one statement, each value a parameter (`$1`, `$2`...). */
function settingsStatement(settings: Record<string, string> | undefined): OpeningStatement | undefined {
  const entries = Object.entries(settings ?? {});
  if (!entries.length) return undefined;
  const set = entries.map(([name], index) => {
    if (!SETTING_NAME.test(name)) throw new Error(`not a setting name: ${name}`);
    return `set_config('${name}', $${index + 1}, true)`;
  });
  return { sql: `SELECT ${set.join(', ')}`, params: entries.map(([, value]) => value) };
}

/** The statements a transaction's BEGIN carries: its settings, then (with `withOpening`) its opening statement. */
function carriedStatements(options: TransactionOptions | undefined, withOpening: boolean): OpeningStatement[] {
  const settings = settingsStatement(options?.settings);
  const opening = withOpening && options?.opening ? oneStatement(options.opening) : undefined;
  return [settings, opening].filter((statement) => statement !== undefined);
}

/**
 * The BEGIN of a transaction, with its settings' set_config as a second statement of the same query, and its
 * opening statement (with `withOpening`) as the last. Each carried statement with its texts as literals, or, where
 * `preparedName` names a statement the connection has prepared with PREPARE, as an EXECUTE of it with them: the
 * server then plans it once per connection, not on every save (0.24 ms of a save's read under `npm run load`).
 */
function beginOf(
  options: TransactionOptions | undefined,
  literal: (value: string) => string,
  withOpening = false,
  preparedName?: (sql: string) => string | undefined,
) {
  const begin = options?.readOnlySnapshot ? 'BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY' : 'BEGIN';
  const carried = carriedStatements(options, withOpening).map((statement) => {
    const name = preparedName?.(statement.sql);
    return name ? `EXECUTE ${name}(${statement.params.map(literal).join(', ')})` : withLiterals(statement, literal);
  });
  return [begin, ...carried].join('; ');
}

/** The opening statement, refused unless it is one statement (its texts become literals on PostgreSQL). */
function oneStatement(opening: OpeningStatement) {
  if (opening.sql.includes(';')) throw new Error('an opening statement is one statement');
  return opening;
}

/** A statement with its parameters written in as literals: one statement, every `$n` a given text. */
function withLiterals(opening: OpeningStatement, literal: (value: string) => string) {
  const { sql, params } = oneStatement(opening);
  return sql.replace(/\$(\d+)/g, (_, index: string) => {
    const value = params[Number(index) - 1];
    if (typeof value !== 'string') throw new Error(`no text for $${index} of the opening statement`);
    return literal(value);
  });
}

/** The rows of the last statement of a query of several (node-postgres answers one result per statement). */
function lastRows(result: { rows: unknown[] } | { rows: unknown[] }[]) {
  const last = Array.isArray(result) ? result[result.length - 1] : result;
  return last.rows as Record<string, unknown>[];
}

/**
 * `settings` in a transaction already open (one that joins another: handler-context.ts, `joined`), as the
 * BEGIN of a transaction of its own sets them.
 */
export async function applySettings(tx: Db, settings: Record<string, string> | undefined) {
  const statement = settingsStatement(settings);
  if (statement) await tx.query(statement.sql, statement.params);
}

/** A text as an SQL string literal (standard_conforming_strings, on in both engines: a backslash is itself). */
const sqlLiteral = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** How the gateway holds its connections to a PostgreSQL server (README, "Running on PostgreSQL"). */
export interface PoolSettings {
  /** Connections per gateway process. */
  size: number;
  /** A statement running longer is cancelled; 0: no limit. */
  statementTimeoutMs: number;
  /** How long a request waits for a connection, new or free in the pool. */
  connectTimeoutMs: number;
}

export const defaultPoolSettings: PoolSettings = { size: 10, statementTimeoutMs: 30_000, connectTimeoutMs: 5_000 };

/**
 * The database could not be reached, lost the connection or did not answer in time. Nothing of
 * the request was committed, and the same request may succeed a moment later: the gateway
 * answers 503 with Retry-After, not 500, and never turns it into a refusal of the caller.
 */
export class DatabaseUnavailableError extends Error {
  constructor(readonly reason: unknown) {
    super(`The database is unavailable: ${reason instanceof Error ? reason.message : String(reason)}`);
    this.name = 'DatabaseUnavailableError';
  }
}

const NETWORK_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** What `pg` says, without a code, when a connection is lost, refused in time, or times out. */
const LOST_CONNECTION =
  /connection terminated|timeout exceeded when trying to connect|query read timeout|not queryable/i;

/**
 * `connection`: the connection is gone or none could be made (a network error, SQLSTATE class 08,
 * the server shutting down or starting, 57P*, or full, 53300); `timeout`: the statement ran out of
 * time (57014) on a connection that still works; undefined: any other error, the request's own.
 */
export function databaseTrouble(error: unknown): 'connection' | 'timeout' | undefined {
  if (error instanceof DatabaseUnavailableError) return databaseTrouble(error.reason) ?? 'connection';
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === '57014') return 'timeout';
  if (typeof code === 'string' && (NETWORK_ERRORS.has(code) || /^(08|57P)/.test(code) || code === '53300')) {
    return 'connection';
  }
  return typeof message === 'string' && LOST_CONNECTION.test(message) ? 'connection' : undefined;
}

export interface OpenDbOptions {
  /** postgres://... uses a real server; otherwise PGlite. */
  databaseUrl?: string;
  /** For a real server; defaults to `defaultPoolSettings`. */
  pool?: Partial<PoolSettings>;
  /** A connection lost while idle in the pool; the pool drops it and the next request opens another. */
  onIdleConnectionError?: (error: Error) => void;
  /** PGlite data folder; omitted means in memory. */
  dataDir?: string;
  /** A PGlite dump (from `dumpDataDir`) to start from, for fast test databases. */
  loadDataDir?: Blob | File;
}

/** PostgreSQL's type ids of json and jsonb. */
const JSON_TYPES = [114, 3802];
const asText = (text: string) => text;
/** PGlite's parsers of `QueryOptions.jsonAsText`. */
const JSON_AS_TEXT = Object.fromEntries(JSON_TYPES.map((type) => [type, asText]));

/** PGlite is single-connection: calls are serialised through one promise chain. */
function serialised() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const next = tail.then(work, work);
    tail = next.catch(() => undefined);
    return next;
  };
}

async function openPglite(options: OpenDbOptions): Promise<Db & { dump(): Promise<Blob> }> {
  const { PGlite } = await import('@electric-sql/pglite');
  // Migration 004 creates pg_trgm; a real server has it as a standard contrib module.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const pg = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: { pg_trgm },
  });
  const run = serialised();
  let closed = false;
  const direct: Db = {
    query: async <T>(sql: string, params?: unknown[], options?: QueryOptions) => {
      const result = await pg.query<T>(
        sql,
        params as unknown[] | undefined,
        options?.jsonAsText ? { parsers: JSON_AS_TEXT } : undefined,
      );
      return { rows: result.rows };
    },
    transaction: () => Promise.reject(new Error('nested transactions are not supported')),
    close: () => Promise.resolve(),
  };
  return {
    query: (sql, params, options) => run(() => direct.query(sql, params, options)),
    transaction: (fn, options) =>
      run(async () => {
        await pg.exec(beginOf(options, sqlLiteral));
        try {
          // One session in the process: the opening statement costs no round trip of its own here.
          const opening = options?.opening && oneStatement(options.opening);
          const opened = opening
            ? (await pg.query<Record<string, unknown>>(opening.sql, opening.params)).rows
            : undefined;
          const result = await fn(direct, opened);
          await pg.query('COMMIT');
          return result;
        } catch (error) {
          await pg.query('ROLLBACK');
          throw error;
        }
      }),
    close: () =>
      run(async () => {
        if (closed) return;
        closed = true;
        await pg.close();
      }),
    dump: () => run(() => pg.dumpDataDir('none')),
    // PGlite is one session: it hears its own NOTIFY, after COMMIT, as PostgreSQL's sessions do.
    listen: (channel, onPayload) =>
      run(async () => {
        const stop = await pg.listen(channel, onPayload);
        return () => run(async () => (closed ? undefined : stop()));
      }),
  };
}

const statementNames = new Map<string, string>();

/** The name a prepared statement goes by on every connection: from its text, the same text the same name. */
function statementName(sql: string) {
  let name = statementNames.get(sql);
  if (!name) {
    name = `w_${createHash('sha256').update(sql).digest('base64url').slice(0, 24)}`;
    statementNames.set(sql, name);
  }
  return name;
}

/** Per connection, the statements carried by a BEGIN that it has prepared with PREPARE (beginOf), and refused. */
const carriedPrepared = new WeakMap<object, { prepared: Set<string>; refused: Set<string> }>();

/**
 * Prepares on `client`, once, the statements a BEGIN carries, with PREPARE (the names of `statementName` with
 * another prefix: node-postgres prepares its own through the protocol, which share the connection's names), and
 * answers the name of each, quoted (a base64url name may hold a `-`). A PREPARE refused leaves that statement
 * sent with literals on that connection from then on, not tried again on every transaction.
 */
async function prepareCarried(
  client: Pick<Pool, 'query'> & object,
  statements: OpeningStatement[],
): Promise<(sql: string) => string | undefined> {
  let known = carriedPrepared.get(client);
  if (!known) carriedPrepared.set(client, (known = { prepared: new Set(), refused: new Set() }));
  const { prepared, refused } = known;
  const name = (sql: string) => `"o${statementName(sql).slice(1)}"`;
  const missing = statements.filter((statement) => !prepared.has(statement.sql) && !refused.has(statement.sql));
  if (missing.length) {
    await Promise.all(
      missing.map(({ sql }) =>
        client.query(`PREPARE ${name(sql)} AS ${sql}`).then(
          () => prepared.add(sql),
          () => refused.add(sql),
        ),
      ),
    );
  }
  return (sql) => (prepared.has(sql) ? name(sql) : undefined);
}

/** A statement may run this long past its server-side timeout before the client gives up on the server. */
const UNANSWERED_GRACE_MS = 2_000;

async function openPostgres(databaseUrl: string, options: OpenDbOptions): Promise<Db> {
  const { default: pg } = await import('pg');
  // `QueryOptions.jsonAsText`: json and jsonb as text, every other type as usual.
  const jsonAsText = {
    getTypeParser: ((type: number, format?: 'text' | 'binary') =>
      JSON_TYPES.includes(type) ? asText : pg.types.getTypeParser(type, format)) as typeof pg.types.getTypeParser,
  };
  const settings = { ...defaultPoolSettings, ...options.pool };
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: settings.size,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    statement_timeout: settings.statementTimeoutMs || undefined,
    // A server that vanished without closing the connection answers nothing: give up on it too.
    query_timeout: settings.statementTimeoutMs ? settings.statementTimeoutMs + UNANSWERED_GRACE_MS : undefined,
    keepAlive: true,
  });
  // Without a listener, an idle connection lost with the server would end the process.
  pool.on('error', (error) => options.onIdleConnectionError?.(error));
  const unavailableOr = (error: unknown) => (databaseTrouble(error) ? new DatabaseUnavailableError(error) : error);
  const types = (options?: QueryOptions) => (options?.jsonAsText ? jsonAsText : undefined);
  /** A statement run with its kept generic plan (`QueryOptions.genericPlan`) on `client`, or undefined if it cannot be. */
  const generic = async (client: PoolClient, sql: string, params: unknown[], options: QueryOptions) => {
    const statement = { sql, params: params.map((value) => (typeof value === 'number' ? String(value) : value)) };
    if (!statement.params.every((value) => typeof value === 'string')) return undefined;
    const named = await prepareCarried(client, [statement as OpeningStatement]);
    const name = named(sql);
    if (!name) return undefined;
    const literals = (statement.params as string[]).map((value) => client.escapeLiteral(value)).join(', ');
    const results = (await client.query({
      text: `SET plan_cache_mode = force_generic_plan; EXECUTE ${name}(${literals}); RESET plan_cache_mode`,
      types: types(options),
    })) as unknown as { rows: unknown[] }[];
    return { rows: results[1].rows };
  };
  /**
   * `Db.commitWith` in one query of two statements (EXECUTE of the statement the connection prepared with PREPARE,
   * its parameters as literals; COMMIT), or undefined where a parameter is no text, number or null.
   */
  const withCommit = async (client: PoolClient, sql: string, params: unknown[], options?: QueryOptions) => {
    if (!params.every((value) => value === null || typeof value === 'string' || Number.isFinite(value))) {
      return undefined;
    }
    const name = (await prepareCarried(client, [{ sql, params: [] }]))(sql);
    if (!name) return undefined;
    const literals = params
      .map((value) => (value === null ? 'NULL' : client.escapeLiteral(String(value as string | number))))
      .join(', ');
    const results = (await client.query({
      text: `EXECUTE ${name}(${literals}); COMMIT`,
      types: types(options),
    })) as unknown as { rows: unknown[] }[];
    return { rows: results[0].rows };
  };
  const wrap = (client: Pick<Pool, 'query'>, checkedOut?: PoolClient): Db['query'] =>
    (async <T>(sql: string, params?: unknown[], options?: QueryOptions) => {
      try {
        if (options?.genericPlan && options.prepared) {
          const own = checkedOut ?? (await pool.connect());
          let lost: Error | undefined;
          try {
            const result = await generic(own, sql, params ?? [], options);
            if (result) return result as { rows: T[] };
          } catch (error) {
            if (!checkedOut && databaseTrouble(error) === 'connection') lost = error as Error;
            throw error;
          } finally {
            if (!checkedOut) own.release(lost);
          }
        }
        const result = await (options?.prepared || options?.jsonAsText
          ? client.query({
              name: options.prepared ? statementName(sql) : undefined,
              text: sql,
              values: params,
              types: types(options),
            })
          : client.query(sql, params));
        return { rows: result.rows as T[] };
      } catch (error) {
        throw unavailableOr(error);
      }
    }) as Db['query'];
  return {
    query: wrap(pool),
    transaction: async (fn, options) => {
      const client = await pool.connect().catch((error: unknown) => {
        throw unavailableOr(error);
      });
      // A checked-out connection has no pool listener: one lost between two statements is noted
      // here, and the next statement fails with it.
      let lost: Error | undefined;
      const noteLost = (error: Error) => (lost = error);
      client.on('error', noteLost);
      /** Whether commitWith committed: nothing is to be committed or rolled back after it. */
      let committed = false;
      try {
        const query = wrap(client, client);
        const tx: Db = {
          query: (sql, params, queryOptions) =>
            committed ? Promise.reject(new Error('the transaction has committed')) : query(sql, params, queryOptions),
          transaction: () => Promise.reject(new Error('nested transactions are not supported')),
          close: () => Promise.resolve(),
          commitWith: async <T>(sql: string, params: unknown[] = [], queryOptions?: QueryOptions) => {
            const together = await withCommit(client, sql, params, queryOptions).catch((error: unknown) => {
              throw unavailableOr(error);
            });
            if (together) {
              committed = true;
              return together as QueryResult<T>;
            }
            const result = await tx.query<T>(sql, params, queryOptions);
            await tx.query('COMMIT');
            committed = true;
            return result;
          },
        };
        const preparedName = await prepareCarried(client, carriedStatements(options, true));
        const begun = await client
          .query(beginOf(options, (value) => client.escapeLiteral(value), true, preparedName))
          .catch((error: unknown) => {
            throw unavailableOr(error);
          });
        const result = await fn(tx, options?.opening ? lastRows(begun as unknown as { rows: unknown[] }) : undefined);
        if (!committed) await tx.query('COMMIT');
        return result;
      } catch (error) {
        if (committed) throw error;
        if (databaseTrouble(error) === 'connection') lost ??= error as Error;
        else await client.query('ROLLBACK').catch((rollbackError: Error) => (lost ??= rollbackError));
        throw unavailableOr(error);
      } finally {
        client.off('error', noteLost);
        // A connection in doubt is closed rather than handed to the next request.
        client.release(lost);
      }
    },
    listen: (channel, onPayload, onResumed, onLost) =>
      listenOnPostgres(databaseUrl, channel, onPayload, onResumed, onLost),
    close: () => pool.end(),
  };
}

/** Backoff of the listening connection after it was lost: 0.5 s doubling to 15 s. */
const LISTEN_RETRY_MS = [500, 1000, 2000, 4000, 8000, 15_000];

/**
 * A connection of its own that LISTENs on `channel` (a pooled one would be handed to requests). Lost,
 * it is opened again with backoff, and `onResumed` tells the listener that it may have missed payloads.
 */
async function listenOnPostgres(
  databaseUrl: string,
  channel: string,
  onPayload: (payload: string) => void,
  onResumed?: () => void,
  onLost?: () => void,
): Promise<() => Promise<void>> {
  const { default: pg } = await import('pg');
  let stopped = false;
  let client: InstanceType<typeof pg.Client> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let attempt = 0;
  const open = async () => {
    const next = new pg.Client({ connectionString: databaseUrl, keepAlive: true });
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
    });
    next.on('error', () => reopen(next));
    next.on('end', () => reopen(next));
    await next.connect();
    await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    client = next;
  };
  const reopen = (lost: InstanceType<typeof pg.Client>) => {
    if (stopped || lost !== client || timer) return;
    client = undefined;
    onLost?.();
    lost.end().catch(() => undefined);
    const retry = () => {
      timer = setTimeout(
        () => {
          timer = undefined;
          if (stopped) return;
          open().then(
            () => {
              attempt = 0;
              onResumed?.();
            },
            () => {
              attempt += 1;
              retry();
            },
          );
        },
        LISTEN_RETRY_MS[Math.min(attempt, LISTEN_RETRY_MS.length - 1)],
      );
    };
    retry();
  };
  await open();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await client?.end().catch(() => undefined);
  };
}

export async function openDb(options: OpenDbOptions = {}): Promise<Db> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openPglite(options);
}

/** Opens an in-memory PGlite and returns it with a dump function (used to clone test databases). */
export async function openDumpableMemoryDb(loadDataDir?: Blob) {
  return openPglite({ loadDataDir });
}

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Applies `server/db/migrations/NNN-name.sql` in order, each once, each in its own transaction. */
export async function migrate(db: Db): Promise<string[]> {
  await db.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  const done = new Set(
    (await db.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name),
  );
  const files = (await readdir(migrationsDir)).filter((f) => /^\d{3}-.+\.sql$/.test(f)).sort();
  const applied: string[] = [];
  for (const file of files) {
    if (done.has(file)) continue;
    const sql = await readFile(path.join(migrationsDir, file), 'utf8');
    await db.transaction(async (tx) => {
      // A migration may rewrite every record: the requests' statement timeout is not for it.
      await tx.query('SET LOCAL statement_timeout = 0');
      for (const statement of splitSql(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
    });
    applied.push(file);
  }
  return applied;
}

/** Splits a migration into statements on `;` at line ends (migrations keep one statement per `;`). */
function splitSql(sql: string): string[] {
  return sql
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
}
