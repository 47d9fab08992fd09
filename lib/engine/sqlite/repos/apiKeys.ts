/** API keys over SQLite (migration 0003). */
import type Database from "better-sqlite3";
import type { ApiKey, ApiKeysRepo } from "../../../keys/repo";
import { lazyStatement } from "./lazy";

interface Row {
  id: string;
  account_id: string;
  hash: string;
  prefix: string;
  last4: string;
  created_at_ms: number;
  last_used_at_ms: number | null;
  revoked_at_ms: number | null;
  rate_per_minute: number;
}

const toKey = (r: Row): ApiKey => ({
  id: r.id,
  accountId: r.account_id,
  hash: r.hash,
  prefix: r.prefix,
  last4: r.last4,
  createdAtMs: r.created_at_ms,
  lastUsedAtMs: r.last_used_at_ms,
  revokedAtMs: r.revoked_at_ms,
  ratePerMinute: r.rate_per_minute,
});

export function apiKeysRepo(db: Database.Database): ApiKeysRepo {
  const insert = lazyStatement(() =>
    db.prepare(
      `INSERT INTO api_keys (id, account_id, hash, prefix, last4, created_at_ms, last_used_at_ms, revoked_at_ms, rate_per_minute)
       VALUES (@id, @accountId, @hash, @prefix, @last4, @createdAtMs, @lastUsedAtMs, @revokedAtMs, @ratePerMinute)`,
    ),
  );
  const byId = lazyStatement(() => db.prepare("SELECT * FROM api_keys WHERE id = ?"));
  const byHash = lazyStatement(() => db.prepare("SELECT * FROM api_keys WHERE hash = ?"));
  const byAccount = lazyStatement(() => db.prepare("SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at_ms DESC, id DESC LIMIT ?"));
  const setLastUsed = lazyStatement(() => db.prepare("UPDATE api_keys SET last_used_at_ms = ? WHERE id = ?"));
  const setRevoked = lazyStatement(() => db.prepare("UPDATE api_keys SET revoked_at_ms = ? WHERE id = ?"));
  const setRate = lazyStatement(() => db.prepare("UPDATE api_keys SET rate_per_minute = ? WHERE id = ?"));
  return {
    async insert(key) {
      insert().run(key);
    },
    async get(id) {
      const row = byId().get(id) as Row | undefined;
      return row ? toKey(row) : null;
    },
    async getByHash(hash) {
      const row = byHash().get(hash) as Row | undefined;
      return row ? toKey(row) : null;
    },
    async listByAccount(accountId, limit) {
      return (byAccount().all(accountId, Math.min(limit, 100)) as Row[]).map(toKey);
    },
    async patch(id, patch) {
      if (patch.lastUsedAtMs !== undefined) setLastUsed().run(patch.lastUsedAtMs, id);
      if (patch.revokedAtMs !== undefined) setRevoked().run(patch.revokedAtMs, id);
      if (patch.ratePerMinute !== undefined) setRate().run(patch.ratePerMinute, id);
    },
  };
}
