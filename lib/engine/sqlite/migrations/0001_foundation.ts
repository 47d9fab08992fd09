/** Accounts, and the migration bookkeeping every later migration relies on. */
export const sql = `
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  kinde_customer_id TEXT UNIQUE,
  plan TEXT NOT NULL,
  plan_changed_at_ms INTEGER NOT NULL,
  agreement_id TEXT,
  cycle_anchor_ms INTEGER,
  billing_status TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL
) STRICT;
`;
