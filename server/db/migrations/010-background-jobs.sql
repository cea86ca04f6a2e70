-- Work a request starts and later requests poll (a service point report today), shared by every
-- gateway process: any process may take a queued job, and a process that dies holding one lets its
-- lease run out so another takes it over. runs counts the takes, so a test can prove each job ran once.
CREATE TABLE background_jobs (
  id uuid PRIMARY KEY,
  kind text NOT NULL,
  -- The requester: only they may poll the job.
  owner text NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'running', 'ready', 'failed')),
  progress integer NOT NULL DEFAULT 0,
  result jsonb,
  message text,
  runs integer NOT NULL DEFAULT 0,
  claimed_by text,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);

CREATE INDEX background_jobs_waiting_idx ON background_jobs (created_at) WHERE status IN ('queued', 'running');

CREATE INDEX background_jobs_expires_idx ON background_jobs (expires_at);
