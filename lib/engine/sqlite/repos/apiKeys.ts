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
});

export function apiKeysRepo(db: Database.Database): ApiKeysRepo {
  const insert = lazyStatement(() =>
    db.prepare(
      `INSERT INTO api_keys (id, account_id, hash, prefix, last4, created_at_ms, last_used_at_ms, revoked_at_ms)
       VALUES (@id, @accountId, @hash, @prefix, @last4, @createdAtMs, @lastUsedAtMs, @revokedAtMs)`,
    ),
  );
  const byId = lazyStatement(() => db.prepare("SELECT * FROM api_keys WHERE id = ?"));
  const byHash = lazyStatement(() => db.prepare("SELECT * FROM api_keys WHERE hash = ?"));
  const byAccount = lazyStatement(() => db.prepare("SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at_ms DESC, id DESC LIMIT ?"));
  const setLastUsed = lazyStatement(() => db.prepare("UPDATE api_keys SET last_used_at_ms = ? WHERE id = ?"));
  const setRevoked = lazyStatement(() => db.prepare("UPDATE api_keys SET revoked_at_ms = ? WHERE id = ?"));
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
    },
  };
}
