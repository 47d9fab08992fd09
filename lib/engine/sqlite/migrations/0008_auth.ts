/** People who sign in, their sessions and invites, the first-run record, the audit log, and a rate per API key. */
export const sql = `
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('operator', 'member')),
  account_id TEXT REFERENCES accounts(id),
  password_hash TEXT,
  kinde_user_id TEXT UNIQUE,
  created_at_ms INTEGER NOT NULL,
  disabled_at_ms INTEGER,
  CHECK ((role = 'member') = (account_id IS NOT NULL))
) STRICT;
CREATE INDEX users_by_role ON users (role, created_at_ms);
CREATE INDEX users_by_account ON users (account_id, created_at_ms);

CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id),
  created_at_ms INTEGER NOT NULL,
  expires_at_ms INTEGER NOT NULL,
  ended_at_ms INTEGER
) STRICT;
CREATE INDEX sessions_by_user ON sessions (user_id, created_at_ms);

CREATE TABLE invites (
  id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  role TEXT NOT NULL CHECK (role IN ('operator', 'member')),
  account_id TEXT REFERENCES accounts(id),
  email TEXT NOT NULL,
  invited_by TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  expires_at_ms INTEGER NOT NULL,
  used_at_ms INTEGER,
  used_by_user_id TEXT,
  CHECK ((role = 'member') = (account_id IS NOT NULL))
) STRICT;
CREATE INDEX invites_by_account ON invites (account_id, created_at_ms);

CREATE TABLE setup (
  key TEXT PRIMARY KEY CHECK (key = 'first_operator'),
  done_at_ms INTEGER NOT NULL,
  user_id TEXT NOT NULL
) STRICT;

CREATE TABLE audit_log (
  sort_key TEXT PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  at_ms INTEGER NOT NULL,
  actor_kind TEXT NOT NULL CHECK (actor_kind IN ('operator', 'member', 'key', 'operator_token', 'system')),
  actor_id TEXT,
  actor_label TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT NOT NULL,
  account_id TEXT,
  detail TEXT NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX audit_log_by_account ON audit_log (account_id, sort_key);

ALTER TABLE api_keys ADD COLUMN rate_per_minute INTEGER NOT NULL DEFAULT 60000;
`;
