import { defineTable } from "convex/server";
import { v } from "convex/values";

const nullableNumber = v.union(v.number(), v.null());
const attempt = v.union(v.literal("ok"), v.literal("failed"), v.literal("rate_limited"));

/** The meter's tables (Part B); who writes and reads each is in lib/meter/repo.ts. */
export const meterTables = {
  // One row per (account, feature, cycle) with usage: what was last sent, and the reporter's lease.
  meterCycles: defineTable({
    accountId: v.string(),
    feature: v.string(),
    cycle: v.string(),
    firstUsageAtMs: v.number(),
    sentUnits: nullableNumber, // last total set successfully
    sentAtMs: nullableNumber,
    lastAttemptUnits: nullableNumber,
    lastAttemptAtMs: nullableNumber,
    lastAttemptResult: v.union(attempt, v.null()),
    leaseUntilMs: v.number(), // 0: no report in flight
  })
    .index("by_cycle", ["accountId", "feature", "cycle"])
    .index("by_lease", ["leaseUntilMs"]),
  // The sent log: one row per meter write, by the reporter or a reconciler repair.
  meterReports: defineTable({
    accountId: v.string(),
    feature: v.string(),
    cycle: v.string(),
    totalUnits: v.number(),
    atMs: v.number(),
    result: attempt,
    detail: v.union(v.string(), v.null()),
    sentBy: v.union(v.literal("reporter"), v.literal("reconciler")),
  }).index("by_cycle", ["accountId", "feature", "cycle"]),
  // Closed cycles a person must look at.
  meterReviews: defineTable({
    accountId: v.string(),
    feature: v.string(),
    cycle: v.string(),
    status: v.union(v.literal("open"), v.literal("resolved")),
    ledgerUnits: v.number(),
    providerUnits: nullableNumber,
    reason: v.string(),
    firstAtMs: v.number(),
    lastAtMs: v.number(),
    resolvedAtMs: nullableNumber,
    resolution: v.union(v.string(), v.null()),
  })
    .index("by_cycle", ["accountId", "feature", "cycle"])
    .index("by_status", ["status", "lastAtMs"]),
  // The reconciler's evidence: one row per cycle whose standing changed.
  meterEvidence: defineTable({
    id: v.string(), // evd_…
    runId: v.string(),
    accountId: v.string(),
    feature: v.string(),
    cycle: v.string(),
    atMs: v.number(),
    closed: v.boolean(),
    ledgerUnits: v.number(),
    counterUnits: v.number(),
    countersRebuilt: v.boolean(),
    sentUnits: nullableNumber,
    lastReportFailed: v.boolean(),
    providerUnits: nullableNumber,
    verdict: v.union(v.literal("unreadable"), v.literal("match"), v.literal("closed_cycle_drift"), v.literal("over_billed"), v.literal("under_billed")),
    cause: v.string(),
    repairUnits: nullableNumber,
    readBackUnits: nullableNumber,
    outcome: v.union(v.literal("none"), v.literal("repaired_confirmed"), v.literal("repair_unconfirmed"), v.literal("review")),
    standing: v.string(),
  })
    .index("by_cycle", ["accountId", "feature", "cycle"])
    .index("by_run", ["runId"]),
  // One row per reconciler run.
  meterRuns: defineTable({
    id: v.string(), // run_…
    trigger: v.union(v.literal("nightly"), v.literal("on_demand"), v.literal("requested")),
    accountId: v.union(v.string(), v.null()),
    startedAtMs: v.number(),
    finishedAtMs: nullableNumber,
    accounts: v.number(),
    cycles: v.number(),
    evidenceRows: v.number(),
    repairs: v.number(),
    countersRebuilt: v.number(),
    error: v.union(v.string(), v.null()),
  })
    .index("by_run_id", ["id"])
    .index("by_time", ["startedAtMs"])
    .index("by_trigger", ["trigger", "startedAtMs"]),
  // Accounts queued for a reconcile (meter.requestReconcile); one row per account.
  meterReconcileRequests: defineTable({
    accountId: v.string(),
    requestedAtMs: v.number(),
    reason: v.string(),
  })
    .index("by_account", ["accountId"])
    .index("by_time", ["requestedAtMs"]),
};
