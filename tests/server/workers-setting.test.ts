import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { configProblem, loadConfig } from '../../server/config.ts';

const withEnv = (env: Record<string, string>) => loadConfig({ ...env });

describe('WORKERS, the number of gateway processes sharing the port', () => {
  it('is one by default, and any whole number up to 64 with a PostgreSQL server', () => {
    expect(withEnv({}).workers).toBe(1);
    expect(configProblem(withEnv({}))).toBeUndefined();
    expect(configProblem(withEnv({ WORKERS: '4', DATABASE_URL: 'postgres://db/webtool' }))).toBeUndefined();
  });

  it('names the allowed range for a value that is not a whole number from 1 to 64', () => {
    for (const WORKERS of ['0', '-2', '1.5', 'two', '65']) {
      expect(configProblem(withEnv({ WORKERS, DATABASE_URL: 'postgres://db/webtool' }))).toBe(
        'WORKERS must be a whole number from 1 to 64 (gateway processes sharing the port).',
      );
    }
  });

  it('refuses more than one process on the embedded database, saying why and what to set, before opening it', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, WORKERS: '2', PORT: '0', DATA_DIR: '.tmp/never-opened' };
    delete env.DATABASE_URL;
    const started = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env, encoding: 'utf8' });
    expect(started.status).toBe(1);
    expect(started.stderr).toContain(
      'WORKERS=2 needs a PostgreSQL server: set DATABASE_URL. The embedded database (PGlite) belongs to one process, so it runs with one gateway process only.',
    );
    expect(started.stdout).not.toContain('Webtool running');
  });
});

describe('JOB_LEASE_SECONDS and WEBHOOK_DISPATCH_MS, the background jobs’ timing', () => {
  it('default to a 60 s lease and a look for due webhook events every 5 s', () => {
    expect(withEnv({})).toMatchObject({ jobLeaseSeconds: 60, webhookDispatchMs: 5000 });
    expect(withEnv({ JOB_LEASE_SECONDS: '15', WEBHOOK_DISPATCH_MS: '250' })).toMatchObject({
      jobLeaseSeconds: 15,
      webhookDispatchMs: 250,
    });
  });

  it('refuses a lease shorter than the webhook receiver’s timeout and a dispatch that would spin', () => {
    expect(() => withEnv({ JOB_LEASE_SECONDS: '10' })).toThrow(
      "JOB_LEASE_SECONDS must be a whole number of at least 15, not '10'.",
    );
    expect(() => withEnv({ WEBHOOK_DISPATCH_MS: '5' })).toThrow(
      "WEBHOOK_DISPATCH_MS must be a whole number of at least 100, not '5'.",
    );
  });
});

describe('SEED_SIZE, the network a first start seeds', () => {
  it('is the demo by default, the tests’ smaller network when asked, and nothing else', () => {
    expect(withEnv({}).seedSize).toBe('demo');
    expect(withEnv({ SEED_SIZE: ' ' }).seedSize).toBe('demo');
    expect(withEnv({ SEED_SIZE: 'test' }).seedSize).toBe('test');
    for (const SEED_SIZE of ['small', 'TEST', '1']) {
      expect(() => withEnv({ SEED_SIZE })).toThrow(`SEED_SIZE must be demo or test, not '${SEED_SIZE}'.`);
    }
  });
});
