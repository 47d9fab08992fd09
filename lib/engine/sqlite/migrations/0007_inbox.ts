/** The inbox (Part C): stored webhook events, one receipt per delivery, the keyed allowance ledger, the time guards of billing status and agreement. */
export const sql = `
CREATE TABLE inbox_events (
  id TEXT PRIMARY KEY,
  source TEXT NOT NULL,
  dedupe_key TEXT NOT NULL,
  event_id TEXT,
  type TEXT NOT NULL,
  payload TEXT NOT NULL,
  occurred_at_ms INTEGER NOT NULL,
  received_at_ms INTEGER NOT NULL,
  customer_id TEXT,
  account_id TEXT,
  status TEXT NOT NULL CHECK (status IN ('received', 'processing', 'applied', 'ignored', 'failed', 'dead')),
  attempts INTEGER NOT NULL CHECK (attempts >= 0),
  due_at_ms INTEGER,
  lease_token TEXT,
  seen_count INTEGER NOT NULL CHECK (seen_count >= 1),
  replays INTEGER NOT NULL,
  result TEXT,
  last_error TEXT,
  finished_at_ms INTEGER,
  stop_at_attempt INTEGER
) STRICT;
CREATE UNIQUE INDEX inbox_events_by_dedupe ON inbox_events (source, dedupe_key);
CREATE INDEX inbox_events_by_event_id ON inbox_events (source, event_id);
CREATE INDEX inbox_events_by_status_time ON inbox_events (status, occurred_at_ms, id);
CREATE INDEX inbox_events_by_status_due ON inbox_events (status, due_at_ms);
CREATE INDEX inbox_events_by_account ON inbox_events (account_id, occurred_at_ms);
CREATE INDEX inbox_events_by_received ON inbox_events (received_at_ms);

CREATE TABLE inbox_receipts (
  id TEXT PRIMARY KEY,
  inbox_event_id TEXT NOT NULL,
  webhook_id TEXT,
  received_at_ms INTEGER NOT NULL,
  stored INTEGER NOT NULL CHECK (stored IN (0, 1)),
  size_bytes INTEGER NOT NULL
) STRICT;
CREATE INDEX inbox_receipts_by_event ON inbox_receipts (inbox_event_id, received_at_ms);

CREATE TABLE inbox_allowance (
  key TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  period TEXT NOT NULL,
  plan TEXT NOT NULL,
  units INTEGER NOT NULL,
  reason TEXT NOT NULL,
  inbox_event_id TEXT,
  granted_at_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX inbox_allowance_by_period ON inbox_allowance (account_id, period, granted_at_ms);

CREATE TABLE inbox_account_clocks (
  account_id TEXT PRIMARY KEY,
  billing_changed_at_ms INTEGER,
  agreement_changed_at_ms INTEGER
) STRICT;
`;
