/** API keys over Convex (convex/tables/apiKeys.ts). */
import type { ApiKey, ApiKeysRepo } from "../../../lib/keys/repo";
import { strip, type Db, takeRows } from "./db";

export function apiKeysRepo(db: Db): ApiKeysRepo {
  const byId = (id: string) =>
    db
      .query("apiKeys")
      .withIndex("by_key_id", (q) => q.eq("id", id))
      .unique();
  return {
    async insert(key) {
      await db.insert("apiKeys", key);
    },
    async get(id) {
      const doc = await byId(id);
      return doc ? (strip(doc) as ApiKey) : null;
    },
    async getByHash(hash) {
      const doc = await db
        .query("apiKeys")
        .withIndex("by_hash", (q) => q.eq("hash", hash))
        .unique();
      return doc ? (strip(doc) as ApiKey) : null;
    },
    async listByAccount(accountId, limit) {
      return takeRows<ApiKey>(db
        .query("apiKeys")
        .withIndex("by_account", (q) => q.eq("accountId", accountId))
        .order("desc")
        , limit, 100);
    },
    async patch(id, patch) {
      const doc = await byId(id);
      if (!doc) throw new Error(`Invariant broken: patch of missing key ${id}`);
      await db.patch(doc._id, Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)));
    },
  };
}
