import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDb, type Db } from '../../server/db/adapter.ts';
import { createJobQueue, processName, type JobQueue, type JobWork } from '../../server/gateway/background-jobs.ts';

let db: Db;
const queues: JobQueue[] = [];

beforeAll(async () => {
  db = await openDb();
  await migrate(db);
});
afterEach(async () => {
  await Promise.all(queues.splice(0).map((queue) => queue.stop()));
  await db.query('DELETE FROM background_jobs');
});
afterAll(() => db.close());

function queue(work: Record<string, JobWork>, options: { pollMs?: number } = {}) {
  const created = createJobQueue({ db, work, pollMs: options.pollMs ?? 20 });
  queues.push(created);
  return created;
}

async function settled(jobs: JobQueue, id: string, owner: string) {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const state = await jobs.state(id, owner);
    if (state?.status !== 'pending') return state;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the job never finished');
}

describe('background jobs in the database', () => {
  it('runs a job once and answers its result to its owner only', async () => {
    const seen: unknown[] = [];
    const jobs = queue({
      double: async (payload, progress) => {
        seen.push(payload);
        await progress(50);
        return { twice: Number(payload.n) * 2 };
      },
    });
    const id = await jobs.enqueue('double', 'ann', { n: 21 });
    expect(await settled(jobs, id, 'ann')).toEqual({ status: 'ready', result: { twice: 42 } });
    expect(await jobs.state(id, 'bob')).toBeUndefined();
    expect(await jobs.state('not-a-job', 'ann')).toBeUndefined();
    expect(seen).toEqual([{ n: 21 }]);
    const row = await db.query<{ runs: number; claimed_by: string }>(
      'SELECT runs, claimed_by FROM background_jobs WHERE id = $1',
      [id],
    );
    expect(row.rows[0]).toEqual({ runs: 1, claimed_by: processName });
  });

  it('answers pending with the progress while the work runs, and the failure when it throws', async () => {
    let finish!: () => void;
    const jobs = queue({
      slow: async (_payload, progress) => {
        await progress(40);
        await new Promise<void>((resolve) => (finish = resolve));
        throw new Error('The source went away.');
      },
    });
    const id = await jobs.enqueue('slow', 'ann', {});
    await expect.poll(() => jobs.state(id, 'ann')).toEqual({ status: 'pending', progress: 40 });
    finish();
    expect(await settled(jobs, id, 'ann')).toEqual({ status: 'failed', message: 'The source went away.' });
  });

  it('takes over a job whose process stopped renewing its lease, and leaves one whose lease holds', async () => {
    await db.query(
      `INSERT INTO background_jobs (id, kind, owner, payload, status, runs, claimed_by, lease_until, expires_at) VALUES
       ('00000000-0000-4000-8000-000000000001', 'count', 'ann', '{}', 'running', 1, 'gone:1', now() - interval '1 second', now() + interval '1 hour'),
       ('00000000-0000-4000-8000-000000000002', 'count', 'ann', '{}', 'running', 1, 'busy:2', now() + interval '1 hour', now() + interval '1 hour')`,
    );
    const jobs = queue({ count: async () => 'done' });
    expect(await settled(jobs, '00000000-0000-4000-8000-000000000001', 'ann')).toEqual({
      status: 'ready',
      result: 'done',
    });
    const rows = await db.query<{ id: string; status: string; runs: number; claimed_by: string }>(
      'SELECT id, status, runs, claimed_by FROM background_jobs ORDER BY id',
    );
    expect(rows.rows).toEqual([
      { id: '00000000-0000-4000-8000-000000000001', status: 'ready', runs: 2, claimed_by: processName },
      { id: '00000000-0000-4000-8000-000000000002', status: 'running', runs: 1, claimed_by: 'busy:2' },
    ]);
  });

  it('leaves jobs of kinds it has no work for to the processes that have', async () => {
    const jobs = queue({ mine: async () => 'ok' });
    await db.query(
      `INSERT INTO background_jobs (id, kind, owner, payload, status, expires_at)
       VALUES ('00000000-0000-4000-8000-000000000003', 'theirs', 'ann', '{}', 'queued', now() + interval '1 hour')`,
    );
    const id = await jobs.enqueue('mine', 'ann', {});
    await settled(jobs, id, 'ann');
    const other = await db.query<{ status: string; runs: number }>(
      "SELECT status, runs FROM background_jobs WHERE kind = 'theirs'",
    );
    expect(other.rows).toEqual([{ status: 'queued', runs: 0 }]);
    await expect(jobs.enqueue('theirs', 'ann', {})).rejects.toThrow('No work for jobs of kind theirs');
  });

  it('forgets a finished job once it is kept no longer', async () => {
    const jobs = queue({ quick: async () => 1 });
    const id = await jobs.enqueue('quick', 'ann', {});
    await settled(jobs, id, 'ann');
    await db.query("UPDATE background_jobs SET expires_at = now() - interval '1 second' WHERE id = $1", [id]);
    expect(await jobs.state(id, 'ann')).toBeUndefined();
    await expect
      .poll(async () => (await db.query('SELECT id FROM background_jobs WHERE id = $1', [id])).rows.length)
      .toBe(0);
  });
});
