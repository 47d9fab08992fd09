/**
 * The meter (Part B): short links and their per-day click tallies, the
 * meter's state per cycle, the sent log, the closed-cycle review list, the
 * reconciler's evidence and runs, and queued reconcile requests. Also gives
 * usage marks a due time (a 429 puts a mark off until RateLimit-Reset).
 */
export const sql = `
CREATE TABLE links (
  code TEXT PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  destination TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX links_by_account ON links (account_id, created_at_ms);
CREATE INDEX links_by_time ON links (created_at_ms);

CREATE TABLE link_clicks (
  code TEXT NOT NULL,
  cycle TEXT NOT NULL,
  day TEXT NOT NULL,
  shard INTEGER NOT NULL CHECK (shard BETWEEN 0 AND 15),
  clicks INTEGER NOT NULL,
  PRIMARY KEY (code, cycle, day, shard)
) STRICT, WITHOUT ROWID;

ALTER TABLE usage_marks ADD COLUMN due_at_ms INTEGER NOT NULL DEFAULT 0;
UPDATE usage_marks SET due_at_ms = marked_at_ms;
CREATE INDEX usage_marks_by_due ON usage_marks (due_at_ms);

CREATE TABLE meter_cycles (
  account_id TEXT NOT NULL,
  feature TEXT NOT NULL,
  cycle TEXT NOT NULL,
  first_usage_at_ms INTEGER NOT NULL,
  sent_units INTEGER,
  sent_at_ms INTEGER,
  last_attempt_units INTEGER,
  last_attempt_at_ms INTEGER,
  last_attempt_result TEXT CHECK (last_attempt_result IN ('ok', 'failed', 'rate_limited')),
  lease_until_ms INTEGER NOT NULL,
  PRIMARY KEY (account_id, feature, cycle)
) STRICT, WITHOUT ROWID;
CREATE INDEX meter_cycles_by_lease ON meter_cycles (lease_until_ms);

INSERT INTO meter_cycles (account_id, feature, cycle, first_usage_at_ms, lease_until_ms)
  SELECT account_id, feature, cycle, MIN(at_ms), 0 FROM usage_ledger GROUP BY account_id, feature, cycle;

CREATE TABLE meter_reports (
  seq INTEGER PRIMARY KEY,
  account_id TEXT NOT NULL,
  feature TEXT NOT NULL,
  cycle TEXT NOT NULL,
  total_units INTEGER NOT NULL,
  at_ms INTEGER NOT NULL,
  result TEXT NOT NULL CHECK (result IN ('ok', 'failed', 'rate_limited')),
  detail TEXT,
  sent_by TEXT NOT NULL CHECK (sent_by IN ('reporter', 'reconciler'))
) STRICT;
CREATE INDEX meter_reports_by_cycle ON meter_reports (account_id, feature, cycle, seq);

CREATE TABLE meter_reviews (
  account_id TEXT NOT NULL,
  feature TEXT NOT NULL,
  cycle TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'resolved')),
  ledger_units INTEGER NOT NULL,
  provider_units INTEGER,
  reason TEXT NOT NULL,
  first_at_ms INTEGER NOT NULL,
  last_at_ms INTEGER NOT NULL,
  resolved_at_ms INTEGER,
  resolution TEXT,
  PRIMARY KEY (account_id, feature, cycle)
) STRICT, WITHOUT ROWID;
CREATE INDEX meter_reviews_by_status ON meter_reviews (status, last_at_ms);

CREATE TABLE meter_evidence (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  run_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  feature TEXT NOT NULL,
  cycle TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  closed INTEGER NOT NULL CHECK (closed IN (0, 1)),
  ledger_units INTEGER NOT NULL,
  counter_units INTEGER NOT NULL,
  counters_rebuilt INTEGER NOT NULL CHECK (counters_rebuilt IN (0, 1)),
  sent_units INTEGER,
  last_report_failed INTEGER NOT NULL CHECK (last_report_failed IN (0, 1)),
  provider_units INTEGER,
  verdict TEXT NOT NULL CHECK (verdict IN ('unreadable', 'match', 'closed_cycle_drift', 'over_billed', 'under_billed')),
  cause TEXT NOT NULL,
  repair_units INTEGER,
  read_back_units INTEGER,
  outcome TEXT NOT NULL CHECK (outcome IN ('none', 'repaired_confirmed', 'repair_unconfirmed', 'review')),
  standing TEXT NOT NULL
) STRICT;
CREATE INDEX meter_evidence_by_cycle ON meter_evidence (account_id, feature, cycle, seq);
CREATE INDEX meter_evidence_by_run ON meter_evidence (run_id, seq);

CREATE TABLE meter_runs (
  id TEXT PRIMARY KEY,
  trigger TEXT NOT NULL CHECK (trigger IN ('nightly', 'on_demand', 'requested')),
  account_id TEXT,
  started_at_ms INTEGER NOT NULL,
  finished_at_ms INTEGER,
  accounts INTEGER NOT NULL,
  cycles INTEGER NOT NULL,
  evidence_rows INTEGER NOT NULL,
  repairs INTEGER NOT NULL,
  counters_rebuilt INTEGER NOT NULL,
  error TEXT
) STRICT;
CREATE INDEX meter_runs_by_time ON meter_runs (started_at_ms);
CREATE INDEX meter_runs_by_trigger ON meter_runs (trigger, started_at_ms);

CREATE TABLE meter_reconcile_requests (
  account_id TEXT PRIMARY KEY,
  requested_at_ms INTEGER NOT NULL,
  reason TEXT NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX meter_reconcile_requests_by_time ON meter_reconcile_requests (requested_at_ms);
`;
