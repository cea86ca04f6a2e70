-- Jobs the gateway runs on a schedule (server/gateway/background-jobs.ts, `schedules`): one row per kind,
-- when it is next due. Whichever process moves `next_run_at` on first queues the run, so that several
-- gateway processes run a scheduled job once, not once each.
CREATE TABLE job_schedules (
  kind text PRIMARY KEY,
  next_run_at timestamptz NOT NULL
);
