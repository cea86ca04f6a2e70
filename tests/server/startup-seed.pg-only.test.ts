/**
 * A first start on an empty PostgreSQL database seeds it over connections without the requests' statement
 * timeout: one seed statement writes thousands of piece events and their dashboard rollups, which a busy machine
 * took past the pool's 30 s (the load test's seeding stopped on it). Needs DATABASE_URL.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, freePort } from './support/gateway-process.ts';

const adminUrl = process.env.DATABASE_URL;

describe.skipIf(!adminUrl)('the first start’s seed on PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  beforeAll(async () => {
    database = await createScratchDatabase(adminUrl!, 'webtool_seed');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('is not cut by a request statement timeout far shorter than its statements', async () => {
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
    const seededOrEnded = new Promise<void>((resolve) => {
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Seeded the demo network')) resolve();
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      child.once('exit', () => resolve());
    });
    try {
      await seededOrEnded;
    } finally {
      child.kill('SIGTERM');
    }
    const beforeSeeded = output.split('Seeded the demo network')[0];
    expect(beforeSeeded).not.toContain('statement timeout');
    expect(output).toContain('Seeded the demo network');
  }, 120_000);
});
