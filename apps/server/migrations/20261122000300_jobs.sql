-- Durable jobs: claimed with FOR UPDATE SKIP LOCKED so any number of runners can share the table.
CREATE TABLE jobs (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind          text NOT NULL,
  job_key       text NOT NULL UNIQUE,        -- one job per key, ever: enqueueing a key twice is a no-op
  payload       jsonb NOT NULL DEFAULT '{}'::jsonb,
  status        text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed')),
  run_at        timestamptz NOT NULL DEFAULT now(),
  attempts      integer NOT NULL DEFAULT 0,
  max_attempts  integer NOT NULL DEFAULT 5 CHECK (max_attempts BETWEEN 1 AND 100),
  last_error    text,
  done_by       text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  finished_at   timestamptz
);
CREATE INDEX jobs_due ON jobs (run_at, id) WHERE status = 'pending';
