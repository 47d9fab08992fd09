/** The meter's tables over Convex (convex/tables/meter.ts). */
import type { MeterCycle, MeterEvidence, MeterRepo, MeterReport, MeterReview, MeterRun, ReconcileRequest } from "../../../lib/meter/repo";
import { strip, type Db, takeRows, putRow } from "./db";

const defined = <T extends object>(patch: T) => Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));

export function meterRepo(db: Db): MeterRepo {
  const cycleDoc = (accountId: string, feature: string, cycle: string) =>
    db
      .query("meterCycles")
      .withIndex("by_cycle", (q) => q.eq("accountId", accountId).eq("feature", feature).eq("cycle", cycle))
      .unique();
  const reviewDoc = (accountId: string, feature: string, cycle: string) =>
    db
      .query("meterReviews")
      .withIndex("by_cycle", (q) => q.eq("accountId", accountId).eq("feature", feature).eq("cycle", cycle))
      .unique();
  const runDoc = (id: string) =>
    db
      .query("meterRuns")
      .withIndex("by_run_id", (q) => q.eq("id", id))
      .unique();
  const requestDoc = (accountId: string) =>
    db
      .query("meterReconcileRequests")
      .withIndex("by_account", (q) => q.eq("accountId", accountId))
      .unique();

  return {
    async getCycle(accountId, feature, cycle) {
      const doc = await cycleDoc(accountId, feature, cycle);
      return doc ? (strip(doc) as MeterCycle) : null;
    },
    async insertCycle(row) {
      await db.insert("meterCycles", row);
    },
    async patchCycle(accountId, feature, cycle, patch) {
      const doc = await cycleDoc(accountId, feature, cycle);
      if (!doc) throw new Error(`Invariant broken: patch of a missing meter cycle ${accountId}/${feature}/${cycle}`);
      await db.patch(doc._id, defined(patch));
    },
    async listCycles(accountId, limit, after) {
      const take = Math.min(limit, 200);
      if (!after) {
        const docs = await db
          .query("meterCycles")
          .withIndex("by_cycle", (q) => q.eq("accountId", accountId))
          .take(take);
        return docs.map((d) => strip(d) as MeterCycle);
      }
      // (feature, cycle) > after: the rest of after's feature, then the features after it.
      const sameFeature = await db
        .query("meterCycles")
        .withIndex("by_cycle", (q) => q.eq("accountId", accountId).eq("feature", after.feature).gt("cycle", after.cycle))
        .take(take);
      const laterFeatures =
        sameFeature.length < take
          ? await db
              .query("meterCycles")
              .withIndex("by_cycle", (q) => q.eq("accountId", accountId).gt("feature", after.feature))
              .take(take - sameFeature.length)
          : [];
      return [...sameFeature, ...laterFeatures].map((d) => strip(d) as MeterCycle);
    },
    async listRecentCycles(accountId, limit) {
      return takeRows<MeterCycle>(db
        .query("meterCycles")
        .withIndex("by_cycle", (q) => q.eq("accountId", accountId))
        .order("desc")
        , limit, 200);
    },
    async listExpiredLeases(nowMs, limit) {
      return takeRows<MeterCycle>(db
        .query("meterCycles")
        .withIndex("by_lease", (q) => q.gt("leaseUntilMs", 0).lte("leaseUntilMs", nowMs))
        , limit, 500);
    },

    async insertReport(report) {
      await db.insert("meterReports", report);
    },
    async listReports(accountId, feature, cycle, limit) {
      return takeRows<MeterReport>(db
        .query("meterReports")
        .withIndex("by_cycle", (q) => q.eq("accountId", accountId).eq("feature", feature).eq("cycle", cycle))
        .order("desc")
        , limit, 200);
    },

    async getReview(accountId, feature, cycle) {
      const doc = await reviewDoc(accountId, feature, cycle);
      return doc ? (strip(doc) as MeterReview) : null;
    },
    async putReview(review) {
      const doc = await reviewDoc(review.accountId, review.feature, review.cycle);
      await putRow(db, "meterReviews", doc, review);
    },
    async listReviews(status, limit) {
      return takeRows<MeterReview>(db
        .query("meterReviews")
        .withIndex("by_status", (q) => q.eq("status", status))
        .order("desc")
        , limit, 200);
    },

    async insertEvidence(row) {
      await db.insert("meterEvidence", row);
    },
    async listEvidence(accountId, feature, cycle, limit) {
      return takeRows<MeterEvidence>(db
        .query("meterEvidence")
        .withIndex("by_cycle", (q) => q.eq("accountId", accountId).eq("feature", feature).eq("cycle", cycle))
        .order("desc")
        , limit, 200);
    },
    async listEvidenceOfRun(runId, limit) {
      return takeRows<MeterEvidence>(db
        .query("meterEvidence")
        .withIndex("by_run", (q) => q.eq("runId", runId))
        , limit, 500);
    },

    async insertRun(run) {
      await db.insert("meterRuns", run);
    },
    async getRun(id) {
      const doc = await runDoc(id);
      return doc ? (strip(doc) as MeterRun) : null;
    },
    async patchRun(id, patch) {
      const doc = await runDoc(id);
      if (!doc) throw new Error(`Invariant broken: patch of a missing run ${id}`);
      await db.patch(doc._id, defined(patch));
    },
    async listRuns(limit) {
      return takeRows<MeterRun>(db.query("meterRuns").withIndex("by_time").order("desc"), limit, 100);
    },

    async lastRun(trigger) {
      const doc = await db
        .query("meterRuns")
        .withIndex("by_trigger", (q) => q.eq("trigger", trigger))
        .order("desc")
        .first();
      return doc ? (strip(doc) as MeterRun) : null;
    },

    async getRequest(accountId) {
      const doc = await requestDoc(accountId);
      return doc ? (strip(doc) as ReconcileRequest) : null;
    },
    async putRequest(request) {
      const doc = await requestDoc(request.accountId);
      await putRow(db, "meterReconcileRequests", doc, request);
    },
    async listRequests(limit) {
      return takeRows<ReconcileRequest>(db.query("meterReconcileRequests").withIndex("by_time"), limit, 100);
    },
    async deleteRequest(accountId) {
      const doc = await requestDoc(accountId);
      if (doc) await db.delete(doc._id);
    },
  };
}
