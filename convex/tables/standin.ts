import { defineTable } from "convex/server";
import { v } from "convex/values";

/**
 * The stand-in billing provider's tables: the same as SQLite migration 0004.
 * Written and read only by standin.* scripts (lib/standin/scripts.ts).
 */
export const standinTables = {
  // One current agreement per account, made on first use; a plan change replaces it with a new id.
  standinAgreements: defineTable({
    accountId: v.string(),
    id: v.string(), // agreement_…
    planCode: v.string(),
    anchorMs: v.number(), // start of the first period; day 1–28
    createdAtMs: v.number(),
    updatedAtMs: v.number(),
  }).index("by_account", ["accountId"]),

  // An operator's limit for one account and feature; limitMax null is unlimited.
  standinLimitOverrides: defineTable({
    accountId: v.string(),
    featureCode: v.string(),
    limitMax: v.union(v.number(), v.null()),
    setAtMs: v.number(),
  }).index("by_account_feature", ["accountId", "featureCode"]),

  // Every meter write, as written (append-only); seq orders a cycle's records.
  standinMeterRecords: defineTable({
    id: v.string(), // mrec_…
    accountId: v.string(),
    featureCode: v.string(),
    cycle: v.string(),
    seq: v.number(),
    kind: v.union(v.literal("absolute"), v.literal("delta")),
    value: v.number(),
    totalAfter: v.number(),
    source: v.union(v.literal("write"), v.literal("drift")),
    recordedAtMs: v.number(),
  }).index("by_cycle", ["accountId", "featureCode", "cycle", "seq"]),

  // The fold of a cycle's records, so a read is one row.
  standinMeterTotals: defineTable({
    accountId: v.string(),
    featureCode: v.string(),
    cycle: v.string(),
    total: v.number(),
    records: v.number(),
    updatedAtMs: v.number(),
  }).index("by_cycle", ["accountId", "featureCode", "cycle"]),

  // Fault switches that are on, one per kind.
  standinFaults: defineTable({
    kind: v.union(v.literal("fail_writes"), v.literal("rate_limit"), v.literal("drift"), v.literal("hang"), v.literal("deny_scope")),
    remaining: v.union(v.number(), v.null()),
    amount: v.union(v.number(), v.null()),
    scope: v.union(v.string(), v.null()),
    setAtMs: v.number(),
  }).index("by_kind", ["kind"]),

  // The webhook signing key (RS256); the private half never leaves the server.
  standinSigningKeys: defineTable({
    kid: v.string(),
    publicJwk: v.string(),
    privateJwk: v.string(),
    createdAtMs: v.number(),
  }).index("by_created", ["createdAtMs"]),
};
