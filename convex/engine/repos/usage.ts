/** The usage ledger, counters and marks over Convex (convex/tables/usage.ts). */
import type { UsageEntry, UsageMark, UsageRepo } from "../../../lib/usage/repo";
import { strip, type Db } from "./db";

export function usageRepo(db: Db): UsageRepo {
  const shardDoc = (accountId: string, feature: string, cycle: string, shard: number) =>
    db
      .query("usageCounters")
      .withIndex("by_shard", (q) => q.eq("accountId", accountId).eq("feature", feature).eq("cycle", cycle).eq("shard", shard))
      .unique();
  const markDoc = (accountId: string, feature: string, cycle: string) =>
    db
      .query("usageMarks")
      .withIndex("by_cycle", (q) => q.eq("accountId", accountId).eq("feature", feature).eq("cycle", cycle))
      .unique();

  return {
    async getEntry(key) {
      const doc = await db
        .query("usageLedger")
        .withIndex("by_key", (q) => q.eq("key", key))
        .unique();
      return doc ? (strip(doc) as UsageEntry) : null;
    },
    async insertEntry(entry) {
      await db.insert("usageLedger", entry);
    },
    async addToShard(accountId, feature, cycle, shard, units) {
      const doc = await shardDoc(accountId, feature, cycle, shard);
      if (doc) await db.patch(doc._id, { units: doc.units + units });
      else await db.insert("usageCounters", { accountId, feature, cycle, shard, units });
    },
    async readShards(accountId, feature, cycle) {
      const docs = await db
        .query("usageCounters")
        .withIndex("by_shard", (q) => q.eq("accountId", accountId).eq("feature", feature).eq("cycle", cycle))
        .take(64);
      return docs.map((d) => d.units);
    },
    async getMark(accountId, feature, cycle) {
      const doc = await markDoc(accountId, feature, cycle);
      return doc ? (strip(doc) as UsageMark) : null;
    },
    async insertMark(mark) {
      await db.insert("usageMarks", mark);
    },
    async hasAnyEntry(accountId) {
      const doc = await db
        .query("usageLedger")
        .withIndex("by_cycle", (q) => q.eq("accountId", accountId))
        .first();
      return doc !== null;
    },
  };
}
