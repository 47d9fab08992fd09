/**
 * The stand-in billing provider's tables (lib/standin/repo.ts says who writes
 * and reads each). They model what Kinde keeps for a customer: an agreement,
 * limits, meter records per cycle, plus the stand-in's own fault switches and
 * signing key.
 */
export const sql = `
CREATE TABLE standin_agreements (
  account_id TEXT PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  plan_code TEXT NOT NULL,
  anchor_ms INTEGER NOT NULL,
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL
) STRICT;

CREATE TABLE standin_limit_overrides (
  account_id TEXT NOT NULL,
  feature_code TEXT NOT NULL,
  limit_max INTEGER,
  set_at_ms INTEGER NOT NULL,
  PRIMARY KEY (account_id, feature_code)
) STRICT;

CREATE TABLE standin_meter_records (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  feature_code TEXT NOT NULL,
  cycle TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('absolute', 'delta')),
  value INTEGER NOT NULL,
  total_after INTEGER NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('write', 'drift')),
  recorded_at_ms INTEGER NOT NULL,
  seq INTEGER NOT NULL
) STRICT;
CREATE INDEX standin_meter_records_by_cycle ON standin_meter_records (account_id, feature_code, cycle, seq);

CREATE TABLE standin_meter_totals (
  account_id TEXT NOT NULL,
  feature_code TEXT NOT NULL,
  cycle TEXT NOT NULL,
  total INTEGER NOT NULL,
  records INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL,
  PRIMARY KEY (account_id, feature_code, cycle)
) STRICT;

CREATE TABLE standin_faults (
  kind TEXT PRIMARY KEY CHECK (kind IN ('fail_writes', 'rate_limit', 'drift', 'hang', 'deny_scope')),
  remaining INTEGER,
  amount INTEGER,
  scope TEXT,
  set_at_ms INTEGER NOT NULL
) STRICT;

CREATE TABLE standin_signing_keys (
  kid TEXT PRIMARY KEY,
  public_jwk TEXT NOT NULL,
  private_jwk TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX standin_signing_keys_by_created ON standin_signing_keys (created_at_ms);
`;
