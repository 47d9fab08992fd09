/** The usage ledger, counters and marks over Convex (convex/tables/usage.ts). */
import type { UsageEntry, UsageMark, UsageRepo } from "../../../lib/usage/repo";
import { strip, type Db, takeRows } from "./db";

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
    async pageUnits(accountId, feature, cycle, after, limit) {
      // The cursor is the last row's _creationTime: rows are never changed or
      // deleted, and Convex keeps creation times unique and increasing.
      const docs = await db
        .query("usageLedger")
        .withIndex("by_cycle", (q) => {
          const range = q.eq("accountId", accountId).eq("feature", feature).eq("cycle", cycle);
          return after === null ? range : range.gt("_creationTime", Number(after));
        })
        .take(Math.min(limit, 5000));
      const last = docs.at(-1);
      return { units: docs.map((d) => d.units), cursor: last ? String(last._creationTime) : after };
    },
    async recentEntries(accountId, feature, cycle, limit) {
      return takeRows<UsageEntry>(db
        .query("usageLedger")
        .withIndex("by_cycle", (q) => q.eq("accountId", accountId).eq("feature", feature).eq("cycle", cycle))
        .order("desc")
        , limit, 200);
    },
    async listDueMarks(nowMs, limit) {
      return takeRows<UsageMark>(db
        .query("usageMarks")
        .withIndex("by_due", (q) => q.lte("dueAtMs", nowMs))
        , limit, 500);
    },
    async deleteMark(accountId, feature, cycle) {
      const doc = await markDoc(accountId, feature, cycle);
      if (doc) await db.delete(doc._id);
    },
    async setMarkDue(accountId, feature, cycle, dueAtMs) {
      const doc = await markDoc(accountId, feature, cycle);
      if (!doc) throw new Error(`Invariant broken: setMarkDue of a missing mark ${accountId}/${feature}/${cycle}`);
      await db.patch(doc._id, { dueAtMs });
    },
  };
}
