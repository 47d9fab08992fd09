/** The meter's tables over Convex (convex/tables/meter.ts). */
import type { MeterCycle, MeterEvidence, MeterRepo, MeterReport, MeterReview, MeterRun, ReconcileRequest } from "../../../lib/meter/repo";
import { strip, type Db } from "./db";

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
      const docs = await db
        .query("meterCycles")
        .withIndex("by_cycle", (q) => q.eq("accountId", accountId))
        .order("desc")
        .take(Math.min(limit, 200));
      return docs.map((d) => strip(d) as MeterCycle);
    },
    async listExpiredLeases(nowMs, limit) {
      const docs = await db
        .query("meterCycles")
        .withIndex("by_lease", (q) => q.gt("leaseUntilMs", 0).lte("leaseUntilMs", nowMs))
        .take(Math.min(limit, 500));
      return docs.map((d) => strip(d) as MeterCycle);
    },

    async insertReport(report) {
      await db.insert("meterReports", report);
    },
    async listReports(accountId, feature, cycle, limit) {
      const docs = await db
        .query("meterReports")
        .withIndex("by_cycle", (q) => q.eq("accountId", accountId).eq("feature", feature).eq("cycle", cycle))
        .order("desc")
        .take(Math.min(limit, 200));
      return docs.map((d) => strip(d) as MeterReport);
    },

    async getReview(accountId, feature, cycle) {
      const doc = await reviewDoc(accountId, feature, cycle);
      return doc ? (strip(doc) as MeterReview) : null;
    },
    async putReview(review) {
      const doc = await reviewDoc(review.accountId, review.feature, review.cycle);
      if (doc) await db.replace(doc._id, review);
      else await db.insert("meterReviews", review);
    },
    async listReviews(status, limit) {
      const docs = await db
        .query("meterReviews")
        .withIndex("by_status", (q) => q.eq("status", status))
        .order("desc")
        .take(Math.min(limit, 200));
      return docs.map((d) => strip(d) as MeterReview);
    },

    async insertEvidence(row) {
      await db.insert("meterEvidence", row);
    },
    async listEvidence(accountId, feature, cycle, limit) {
      const docs = await db
        .query("meterEvidence")
        .withIndex("by_cycle", (q) => q.eq("accountId", accountId).eq("feature", feature).eq("cycle", cycle))
        .order("desc")
        .take(Math.min(limit, 200));
      return docs.map((d) => strip(d) as MeterEvidence);
    },
    async listEvidenceOfRun(runId, limit) {
      const docs = await db
        .query("meterEvidence")
        .withIndex("by_run", (q) => q.eq("runId", runId))
        .take(Math.min(limit, 500));
      return docs.map((d) => strip(d) as MeterEvidence);
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
      const docs = await db.query("meterRuns").withIndex("by_time").order("desc").take(Math.min(limit, 100));
      return docs.map((d) => strip(d) as MeterRun);
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
      if (doc) await db.replace(doc._id, request);
      else await db.insert("meterReconcileRequests", request);
    },
    async listRequests(limit) {
      const docs = await db.query("meterReconcileRequests").withIndex("by_time").take(Math.min(limit, 100));
      return docs.map((d) => strip(d) as ReconcileRequest);
    },
    async deleteRequest(accountId) {
      const doc = await requestDoc(accountId);
      if (doc) await db.delete(doc._id);
    },
  };
}
