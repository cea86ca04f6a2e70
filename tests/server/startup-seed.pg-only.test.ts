/**
 * A first start on an empty PostgreSQL database seeds it over connections without the requests' statement
 * timeout: one seed statement writes thousands of piece events and their dashboard rollups, which a busy machine
 * took past the pool's 30 s (the load test's seeding stopped on it). Needs DATABASE_URL.
 */
import { spawn } from 'node:child_process';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createScratchDatabase, freePort } from './support/gateway-process.ts';

const adminUrl = process.env.DATABASE_URL;
/** The test seed takes 15-50 s here; a start that has not seeded by then is stuck, and says where. */
const SEED_WAIT_MS = 100_000;

/** What the sessions on database `url` are doing: the statement and what it waits for. */
async function sessionsOn(url: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, unknown>>(
      `SELECT pid, state, wait_event_type, wait_event, now() - query_start AS running,
              left(regexp_replace(query, '\\s+', ' ', 'g'), 200) AS query
       FROM pg_stat_activity WHERE datname = $1`,
      [new URL(url).pathname.slice(1)],
    );
    return rows.map((row) => JSON.stringify(row)).join('\n');
  } finally {
    await client.end();
  }
}

describe.skipIf(!adminUrl)('the first start’s seed on PostgreSQL', () => {
  // One try more, on a database of its own: a first start once stayed unseeded past two minutes on an idle
  // machine (2026-11-29, cause not found; it seeds in 17-50 s otherwise). A stuck try fails with the process's
  // output and what its database sessions were doing.
  it(
    'is not cut by a request statement timeout far shorter than its statements',
    { retry: 1, timeout: 150_000 },
    async () => {
      const database = await createScratchDatabase(adminUrl!, 'webtool_seed');
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env: {
          ...process.env,
          DATABASE_URL: database.url,
          // Far below the seed's bulk statements, which take seconds: before, the start stopped on it.
          DATABASE_STATEMENT_TIMEOUT_MS: '100',
          SEED_SIZE: 'test',
          PORT: String(await freePort()),
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      let timer: NodeJS.Timeout | undefined;
      const seededOrEnded = new Promise<'seeded' | 'ended' | 'stuck'>((resolve) => {
        const collect = (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('Seeded the demo network')) resolve('seeded');
        };
        child.stdout.on('data', collect);
        child.stderr.on('data', collect);
        child.once('exit', () => resolve('ended'));
        timer = setTimeout(() => resolve('stuck'), SEED_WAIT_MS);
      });
      try {
        const outcome = await seededOrEnded;
        if (outcome === 'stuck') {
          throw new Error(
            `not seeded after ${SEED_WAIT_MS / 1000} s.\nOutput:\n${output}\nSessions:\n${await sessionsOn(database.url)}`,
          );
        }
      } finally {
        clearTimeout(timer);
        child.kill('SIGTERM');
        await new Promise((resolve) =>
          child.exitCode === null && child.signalCode === null ? child.once('exit', resolve) : resolve(undefined),
        );
        await database.drop();
      }
      const beforeSeeded = output.split('Seeded the demo network')[0];
      expect(beforeSeeded).not.toContain('statement timeout');
      expect(output).toContain('Seeded the demo network');
    },
  );
});
