/** The gate (Part A): budgets, jobs and their timelines, the limit cache, the per-account billing row. See lib/gate/repo.ts. */
export const sql = `
CREATE TABLE budgets (
  account_id TEXT NOT NULL,
  feature TEXT NOT NULL,
  cycle TEXT NOT NULL,
  limit_units INTEGER CHECK (limit_units IS NULL OR limit_units >= 0),
  used_units INTEGER NOT NULL CHECK (used_units >= 0),
  held_units INTEGER NOT NULL CHECK (held_units >= 0),
  PRIMARY KEY (account_id, feature, cycle)
) STRICT, WITHOUT ROWID;

CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  feature TEXT NOT NULL,
  cycle TEXT NOT NULL,
  key TEXT NOT NULL,
  estimate_units INTEGER NOT NULL CHECK (estimate_units >= 0),
  held_units INTEGER NOT NULL CHECK (held_units >= 0),
  used_units INTEGER NOT NULL CHECK (used_units >= 0 AND used_units <= held_units),
  status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'cancelled', 'capped', 'expired')),
  steps INTEGER NOT NULL CHECK (steps >= 0),
  lease_expires_at_ms INTEGER NOT NULL,
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL,
  settled_at_ms INTEGER,
  charged_units INTEGER CHECK (charged_units IS NULL OR (charged_units >= 0 AND charged_units <= held_units)),
  released_units INTEGER CHECK (released_units IS NULL OR released_units = held_units - charged_units),
  end_reason TEXT
) STRICT;
CREATE UNIQUE INDEX jobs_by_key ON jobs (account_id, key);
-- The sweeper's index: its cost grows with expired jobs, not with all jobs.
CREATE INDEX jobs_by_lease ON jobs (status, lease_expires_at_ms);
CREATE INDEX jobs_by_account ON jobs (account_id, created_at_ms);
CREATE INDEX jobs_by_account_status ON jobs (account_id, status, created_at_ms);

CREATE TABLE job_events (
  seq INTEGER PRIMARY KEY,
  job_id TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('reserved', 'charged', 'capped', 'extended', 'extend_refused', 'settled', 'expired')),
  units INTEGER NOT NULL CHECK (units >= 0),
  note TEXT
) STRICT;
CREATE INDEX job_events_by_job ON job_events (job_id, seq);

CREATE TABLE gate_limits (
  account_id TEXT NOT NULL,
  feature TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('limited', 'unlimited', 'unread')),
  max_units INTEGER CHECK (max_units IS NULL OR max_units >= 0),
  read_at_ms INTEGER,
  last_attempt_at_ms INTEGER,
  source TEXT NOT NULL,
  last_error TEXT,
  PRIMARY KEY (account_id, feature)
) STRICT, WITHOUT ROWID;

CREATE TABLE gate_billing (
  account_id TEXT PRIMARY KEY,
  admissions_per_minute INTEGER NOT NULL CHECK (admissions_per_minute >= 1),
  window_start_ms INTEGER NOT NULL,
  window_admissions INTEGER NOT NULL CHECK (window_admissions >= 0)
) STRICT, WITHOUT ROWID;
`;
