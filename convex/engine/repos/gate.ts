/** The gate's tables over Convex (convex/tables/gate.ts). */
import type { BillingRow, Budget, CachedLimit, GateRepo, Job, JobEvent } from "../../../lib/gate/repo";
import { strip, type Db, takeRows, putRow } from "./db";

export function gateRepo(db: Db): GateRepo {
  const budgetDoc = (accountId: string, feature: string, cycle: string) =>
    db
      .query("budgets")
      .withIndex("by_budget", (q) => q.eq("accountId", accountId).eq("feature", feature).eq("cycle", cycle))
      .unique();
  const jobDoc = (id: string) =>
    db
      .query("jobs")
      .withIndex("by_job_id", (q) => q.eq("id", id))
      .unique();
  const limitDoc = (accountId: string, feature: string) =>
    db
      .query("gateLimits")
      .withIndex("by_account_feature", (q) => q.eq("accountId", accountId).eq("feature", feature))
      .unique();
  const billingDoc = (accountId: string) =>
    db
      .query("gateBilling")
      .withIndex("by_account", (q) => q.eq("accountId", accountId))
      .unique();

  return {
    async getBudget(accountId, feature, cycle) {
      const doc = await budgetDoc(accountId, feature, cycle);
      return doc ? (strip(doc) as Budget) : null;
    },
    async putBudget(budget) {
      const doc = await budgetDoc(budget.accountId, budget.feature, budget.cycle);
      if (doc) await db.patch(doc._id, { limitUnits: budget.limitUnits, usedUnits: budget.usedUnits, heldUnits: budget.heldUnits });
      else await db.insert("budgets", budget);
    },
    async listBudgets(accountId, limit) {
      // Newest cycle first: the index orders by feature, then cycle (descending here); an account has few features.
      const docs = await db
        .query("budgets")
        .withIndex("by_budget", (q) => q.eq("accountId", accountId))
        .order("desc")
        .take(Math.min(limit, 50));
      return docs.map((d) => strip(d) as Budget).sort((a, b) => (a.cycle === b.cycle ? a.feature.localeCompare(b.feature) : b.cycle.localeCompare(a.cycle)));
    },
    async getJob(id) {
      const doc = await jobDoc(id);
      return doc ? (strip(doc) as Job) : null;
    },
    async getJobByKey(accountId, key) {
      const doc = await db
        .query("jobs")
        .withIndex("by_key", (q) => q.eq("accountId", accountId).eq("key", key))
        .unique();
      return doc ? (strip(doc) as Job) : null;
    },
    async insertJob(job) {
      await db.insert("jobs", job);
    },
    async updateJob(id, patch) {
      const doc = await jobDoc(id);
      if (!doc) throw new Error(`Invariant broken: update of missing job ${id}`);
      await db.patch(doc._id, Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)));
    },
    async listExpiredJobs(nowMs, limit) {
      return takeRows<Job>(db
        .query("jobs")
        .withIndex("by_lease", (q) => q.eq("status", "running").lte("leaseExpiresAtMs", nowMs))
        , limit, 500);
    },
    async listJobs(accountId, { runningOnly, limit }) {
      const docs = runningOnly
        ? await db
            .query("jobs")
            .withIndex("by_account_status", (q) => q.eq("accountId", accountId).eq("status", "running"))
            .order("desc")
            .take(Math.min(limit, 200))
        : await db
            .query("jobs")
            .withIndex("by_account", (q) => q.eq("accountId", accountId))
            .order("desc")
            .take(Math.min(limit, 200));
      return docs.map((d) => strip(d) as Job);
    },
    async insertJobEvent(event) {
      await db.insert("jobEvents", event);
    },
    async listJobEvents(jobId, limit) {
      const docs = await db
        .query("jobEvents")
        .withIndex("by_job", (q) => q.eq("jobId", jobId))
        .order("desc")
        .take(Math.min(limit, 200));
      return docs.reverse().map((d) => strip(d) as JobEvent);
    },
    async getLimit(accountId, feature) {
      const doc = await limitDoc(accountId, feature);
      return doc ? (strip(doc) as CachedLimit) : null;
    },
    async putLimit(limit) {
      const doc = await limitDoc(limit.accountId, limit.feature);
      await putRow(db, "gateLimits", doc, limit);
    },
    async deleteLimit(accountId, feature) {
      const doc = await limitDoc(accountId, feature);
      if (doc) await db.delete(doc._id);
    },
    async listLimits(accountId, limit) {
      return takeRows<CachedLimit>(db
        .query("gateLimits")
        .withIndex("by_account_feature", (q) => q.eq("accountId", accountId))
        , limit, 50);
    },
    async getBilling(accountId) {
      const doc = await billingDoc(accountId);
      return doc ? (strip(doc) as BillingRow) : null;
    },
    async putBilling(row) {
      const doc = await billingDoc(row.accountId);
      await putRow(db, "gateBilling", doc, row);
    },
  };
}
