/** The usage ledger, its 64-way sharded counters and the changed-cycle marks (Part B). */
export const sql = `
CREATE TABLE usage_ledger (
  seq INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  feature TEXT NOT NULL,
  cycle TEXT NOT NULL,
  units INTEGER NOT NULL,
  at_ms INTEGER NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('click', 'job', 'correction')),
  ref TEXT,
  reason TEXT
) STRICT;
CREATE INDEX usage_ledger_by_cycle ON usage_ledger (account_id, feature, cycle, seq);

CREATE TABLE usage_counters (
  account_id TEXT NOT NULL,
  feature TEXT NOT NULL,
  cycle TEXT NOT NULL,
  shard INTEGER NOT NULL CHECK (shard BETWEEN 0 AND 63),
  units INTEGER NOT NULL,
  PRIMARY KEY (account_id, feature, cycle, shard)
) STRICT, WITHOUT ROWID;

CREATE TABLE usage_marks (
  account_id TEXT NOT NULL,
  feature TEXT NOT NULL,
  cycle TEXT NOT NULL,
  marked_at_ms INTEGER NOT NULL,
  PRIMARY KEY (account_id, feature, cycle)
) STRICT, WITHOUT ROWID;
CREATE INDEX usage_marks_by_time ON usage_marks (marked_at_ms);
`;
