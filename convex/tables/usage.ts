import { defineTable } from "convex/server";
import { v } from "convex/values";

export const usageTables = {
  // The append-only usage ledger (Part B). Written by recordUsage inside gate,
  // meter and inbox mutations; read by the reporter, reconciler and pages.
  usageLedger: defineTable({
    key: v.string(), // unique, made by the caller before the first try
    accountId: v.string(),
    feature: v.string(),
    cycle: v.string(), // "YYYY-MM", the month the cycle starts in
    units: v.number(), // whole; negative only for corrections
    atMs: v.number(),
    source: v.union(v.literal("click"), v.literal("job"), v.literal("correction")),
    ref: v.union(v.string(), v.null()),
    reason: v.union(v.string(), v.null()),
  })
    .index("by_key", ["key"])
    .index("by_cycle", ["accountId", "feature", "cycle"]),
  // One counter per (account, feature, cycle), split over 64 shard rows so that
  // concurrent writes rarely conflict on one document.
  usageCounters: defineTable({
    accountId: v.string(),
    feature: v.string(),
    cycle: v.string(),
    shard: v.number(), // 0..63
    units: v.number(),
  }).index("by_shard", ["accountId", "feature", "cycle", "shard"]),
  // A cycle whose total changed since the reporter last took it; one row per cycle.
  usageMarks: defineTable({
    accountId: v.string(),
    feature: v.string(),
    cycle: v.string(),
    markedAtMs: v.number(),
    dueAtMs: v.number(), // the reporter takes it from then on; later than markedAtMs after a 429
  })
    .index("by_cycle", ["accountId", "feature", "cycle"])
    .index("by_marked_at", ["markedAtMs"])
    .index("by_due", ["dueAtMs"]),
};
