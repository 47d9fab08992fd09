import { defineTable } from "convex/server";
import { v } from "convex/values";

/** The gate's tables (Part A); the same fields and indexes as SQLite migration 0005. See lib/gate/repo.ts. */
export const gateTables = {
  // One per account, feature and cycle: the serial point, so nothing but these three numbers.
  // Written by gate.reserve/extend/settle/charge(cap)/sweep; read by them and the budget pages.
  budgets: defineTable({
    accountId: v.string(),
    feature: v.string(),
    cycle: v.string(), // "YYYY-MM"
    limitUnits: v.union(v.number(), v.null()), // limit in force at the last admission; null: no maximum
    usedUnits: v.number(), // sum charged to settled jobs
    heldUnits: v.number(), // sum of the holds of running jobs
  }).index("by_budget", ["accountId", "feature", "cycle"]),
  // One per admitted job. Written by the gate scripts; read by them, the sweeper and the pages.
  jobs: defineTable({
    id: v.string(), // job_…
    accountId: v.string(),
    feature: v.string(),
    cycle: v.string(),
    key: v.string(), // the caller's idempotency key, unique per account
    estimateUnits: v.number(),
    heldUnits: v.number(), // estimate + granted extensions
    usedUnits: v.number(), // charged by steps so far, never above heldUnits
    status: v.union(v.literal("running"), v.literal("completed"), v.literal("failed"), v.literal("cancelled"), v.literal("capped"), v.literal("expired")),
    steps: v.number(), // charge/extend steps applied (retry-safe step numbers)
    leaseExpiresAtMs: v.number(),
    createdAtMs: v.number(),
    updatedAtMs: v.number(),
    settledAtMs: v.union(v.number(), v.null()),
    chargedUnits: v.union(v.number(), v.null()),
    releasedUnits: v.union(v.number(), v.null()),
    endReason: v.union(v.string(), v.null()),
  })
    .index("by_job_id", ["id"])
    .index("by_key", ["accountId", "key"])
    .index("by_lease", ["status", "leaseExpiresAtMs"]) // the sweeper's index
    .index("by_account", ["accountId", "createdAtMs"])
    .index("by_account_status", ["accountId", "status", "createdAtMs"]),
  // A job's timeline. Written beside each job write; read by the pages and GET /api/v1/jobs/:id.
  jobEvents: defineTable({
    jobId: v.string(),
    atMs: v.number(),
    kind: v.union(
      v.literal("reserved"),
      v.literal("charged"),
      v.literal("capped"),
      v.literal("extended"),
      v.literal("extend_refused"),
      v.literal("settled"),
      v.literal("expired"),
    ),
    units: v.number(),
    note: v.union(v.string(), v.null()),
  }).index("by_job", ["jobId", "atMs"]),
  // The limit cache, one per account and feature. Written by the limit refresh and gate.dropLimit;
  // read inside gate.reserve and gate.extend.
  gateLimits: defineTable({
    accountId: v.string(),
    feature: v.string(),
    kind: v.union(v.literal("limited"), v.literal("unlimited"), v.literal("unread")),
    maxUnits: v.union(v.number(), v.null()),
    readAtMs: v.union(v.number(), v.null()),
    lastAttemptAtMs: v.union(v.number(), v.null()),
    source: v.string(), // "standin" | "kinde"
    lastError: v.union(v.string(), v.null()),
  }).index("by_account_feature", ["accountId", "feature"]),
  // The account's billing row: the admission rate limit's counter. Written by gate.reserve on each admission.
  gateBilling: defineTable({
    accountId: v.string(),
    admissionsPerMinute: v.number(),
    windowStartMs: v.number(),
    windowAdmissions: v.number(),
  }).index("by_account", ["accountId"]),
};
