/** API keys per account; only their hashes are stored. */
export const sql = `
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  last4 TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  last_used_at_ms INTEGER,
  revoked_at_ms INTEGER
) STRICT;
CREATE INDEX api_keys_by_account ON api_keys (account_id, created_at_ms);
`;
