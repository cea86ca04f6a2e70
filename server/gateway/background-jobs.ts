import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../db/adapter.ts';

/** What a job's work gets: its payload, and a way to say how far it is (which also renews its lease). */
export type JobWork = (
  payload: Record<string, unknown>,
  progress: (percent: number) => Promise<void>,
) => Promise<unknown>;

/** What a poll answers: `pending` while queued or running, then the work's result or its failure. */
export type JobState =
  | { status: 'pending'; progress: number }
  | { status: 'ready'; result: unknown }
  | { status: 'failed'; message: string };

export interface JobQueue {
  /** Stores a job for `owner` and answers its id; some process (most likely this one) runs it soon. */
  enqueue(kind: string, owner: string, payload: Record<string, unknown>): Promise<string>;
  /** The job's state, or undefined when it is unknown, gone, or someone else's. */
  state(id: string, owner: string): Promise<JobState | undefined>;
  /** Queues the scheduled jobs that are due now (the timer does so every `scheduleCheckMs`). */
  checkSchedules(): Promise<void>;
  /** Stops taking jobs and waits for the one in hand. */
  stop(): Promise<void>;
}

export interface JobQueueOptions {
  db: Db;
  work: Record<string, JobWork>;
  /** How often an idle process looks for jobs queued by another process, or left by a dead one. */
  pollMs?: number;
  /** A job taken by a process that stopped renewing its lease is taken over after this. */
  leaseSeconds?: number;
  /** A finished job is kept this long for its requester to fetch. */
  keptSeconds?: number;
  /**
   * Jobs run on a schedule rather than on request: a kind of `work`, queued every `everySeconds` (owner
   * `SCHEDULE_OWNER`, empty payload) by whichever process finds it due first. The first run is one period after
   * the first process ever started; a schedule left overdue while no gateway ran is run at the next check.
   */
  schedules?: { kind: string; everySeconds: number }[];
  /** How often a process checks the schedules (a minute by default). */
  scheduleCheckMs?: number;
  /** The clock of the schedules; tests move it. */
  now?: () => Date;
}

/** The owner of the jobs the schedules queue. */
export const SCHEDULE_OWNER = 'gateway-schedule';

/** Names the process in `claimed_by`, so a test (or an operator) sees who ran what. */
export const processName = `${hostname()}:${process.pid}`;

/**
 * Jobs live in the database, not in a process: every gateway process polls the same table and takes
 * one job at a time with `FOR UPDATE SKIP LOCKED`, so two processes never take the same job, and a
 * poll lands on whichever process answers it.
 */
export function createJobQueue(options: JobQueueOptions): JobQueue {
  const { db, work } = options;
  const kinds = Object.keys(work);
  const leaseSeconds = options.leaseSeconds ?? 60;
  const keptSeconds = options.keptSeconds ?? 600;
  let draining: Promise<void> | undefined;
  let wanted = false;
  let stopped = false;

  async function claim() {
    const claimed = await db.query<{ id: string; kind: string; payload: Record<string, unknown> }>(
      `UPDATE background_jobs
       SET status = 'running', runs = runs + 1, claimed_by = $1,
           lease_until = now() + make_interval(secs => $2)
       WHERE id = (
         SELECT id FROM background_jobs
         WHERE kind = ANY($3::text[])
           AND (status = 'queued' OR (status = 'running' AND lease_until < now()))
         ORDER BY created_at
         LIMIT 1
         FOR UPDATE SKIP LOCKED)
       RETURNING id, kind, payload`,
      [processName, leaseSeconds, kinds],
    );
    return claimed.rows[0];
  }

  /** Writes only while this process still holds the job: after its lease ran out, another may. */
  const mine = `id = $1 AND claimed_by = $2 AND status = 'running'`;

  async function run(job: { id: string; kind: string; payload: Record<string, unknown> }) {
    const progress = async (percent: number) => {
      await db.query(
        `UPDATE background_jobs SET progress = $3, lease_until = now() + make_interval(secs => $4) WHERE ${mine}`,
        [job.id, processName, Math.round(percent), leaseSeconds],
      );
    };
    try {
      const result = await work[job.kind](job.payload, progress);
      await db.query(
        `UPDATE background_jobs SET status = 'ready', progress = 100, result = $3,
           expires_at = now() + make_interval(secs => $4) WHERE ${mine}`,
        [job.id, processName, JSON.stringify(result), keptSeconds],
      );
    } catch (error) {
      await db.query(
        `UPDATE background_jobs SET status = 'failed', message = $3,
           expires_at = now() + make_interval(secs => $4) WHERE ${mine}`,
        [job.id, processName, (error as Error).message, keptSeconds],
      );
    }
  }

  async function drain() {
    do {
      wanted = false;
      for (let job = await claim(); job && !stopped; job = await claim()) await run(job);
    } while (wanted && !stopped);
  }

  /** Runs jobs until none is left; a wake during a drain makes it look once more. */
  function wake() {
    if (stopped) return;
    if (draining) {
      wanted = true;
      return;
    }
    draining = drain()
      .catch((error: unknown) => console.error('background jobs:', error))
      .finally(() => {
        draining = undefined;
      });
  }

  const poll = setInterval(() => {
    wake();
    db.query('DELETE FROM background_jobs WHERE expires_at < now()').catch(() => undefined);
  }, options.pollMs ?? 1000);
  poll.unref();

  const schedules = options.schedules ?? [];
  const clock = options.now ?? (() => new Date());
  for (const schedule of schedules) {
    if (!work[schedule.kind]) throw new Error(`No work for the scheduled jobs of kind ${schedule.kind}`);
  }
  /** Queues each due schedule once across processes: the UPDATE that moves it on is the claim. */
  async function checkSchedules() {
    const now = clock();
    for (const { kind, everySeconds } of schedules) {
      const next = new Date(now.getTime() + everySeconds * 1000).toISOString();
      await db.query('INSERT INTO job_schedules (kind, next_run_at) VALUES ($1, $2) ON CONFLICT (kind) DO NOTHING', [
        kind,
        next,
      ]);
      const due = await db.query(
        'UPDATE job_schedules SET next_run_at = $2 WHERE kind = $1 AND next_run_at <= $3 RETURNING kind',
        [kind, next, now.toISOString()],
      );
      if (due.rows.length && !stopped) await queue.enqueue(kind, SCHEDULE_OWNER, {});
    }
  }
  let checking: Promise<void> | undefined;
  const check = () => {
    if (stopped || checking) return checking;
    checking = checkSchedules()
      .catch((error: unknown) => console.error('scheduled jobs:', error))
      .finally(() => {
        checking = undefined;
      });
    return checking;
  };
  const scheduleTimer = schedules.length ? setInterval(check, options.scheduleCheckMs ?? 60_000) : undefined;
  scheduleTimer?.unref();
  if (schedules.length) void check();

  const queue: JobQueue = {
    async enqueue(kind, owner, payload) {
      if (!work[kind]) throw new Error(`No work for jobs of kind ${kind}`);
      const id = randomUUID();
      await db.query(
        `INSERT INTO background_jobs (id, kind, owner, payload, status, expires_at)
         VALUES ($1, $2, $3, $4, 'queued', now() + make_interval(secs => $5))`,
        [id, kind, owner, JSON.stringify(payload), keptSeconds],
      );
      wake();
      return id;
    },

    async state(id, owner) {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
      const found = await db.query<{ status: string; progress: number; result: unknown; message: string }>(
        `SELECT status, progress, result, message FROM background_jobs
         WHERE id = $1 AND owner = $2 AND expires_at >= now()`,
        [id, owner],
      );
      const job = found.rows[0];
      if (!job) return undefined;
      if (job.status === 'ready') return { status: 'ready', result: job.result };
      if (job.status === 'failed') return { status: 'failed', message: job.message };
      return { status: 'pending', progress: job.progress };
    },

    async checkSchedules() {
      await check();
    },

    async stop() {
      stopped = true;
      clearInterval(poll);
      if (scheduleTimer) clearInterval(scheduleTimer);
      await checking;
      await draining;
    },
  };
  return queue;
}
