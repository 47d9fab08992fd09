/** The stand-in provider's tables over Convex (convex/tables/standin.ts). */
import type { StandinAgreement, StandinFault, StandinLimitOverride, StandinMeterRecord, StandinMeterTotal, StandinRepo, StandinSigningKey } from "../../../lib/standin/repo";
import { strip, type Db, putRow } from "./db";

export function standinRepo(db: Db): StandinRepo {
  const agreementDoc = (accountId: string) =>
    db
      .query("standinAgreements")
      .withIndex("by_account", (q) => q.eq("accountId", accountId))
      .unique();
  const overrideDoc = (accountId: string, featureCode: string) =>
    db
      .query("standinLimitOverrides")
      .withIndex("by_account_feature", (q) => q.eq("accountId", accountId).eq("featureCode", featureCode))
      .unique();
  const totalDoc = (accountId: string, featureCode: string, cycle: string) =>
    db
      .query("standinMeterTotals")
      .withIndex("by_cycle", (q) => q.eq("accountId", accountId).eq("featureCode", featureCode).eq("cycle", cycle))
      .unique();
  const faultDoc = (kind: StandinFault["kind"]) =>
    db
      .query("standinFaults")
      .withIndex("by_kind", (q) => q.eq("kind", kind))
      .unique();

  return {
    async getAgreement(accountId) {
      const doc = await agreementDoc(accountId);
      return doc ? (strip(doc) as StandinAgreement) : null;
    },
    async putAgreement(agreement) {
      const doc = await agreementDoc(agreement.accountId);
      await putRow(db, "standinAgreements", doc, agreement);
    },
    async getOverride(accountId, featureCode) {
      const doc = await overrideDoc(accountId, featureCode);
      return doc ? (strip(doc) as StandinLimitOverride) : null;
    },
    async listOverrides(accountId, limit) {
      const docs = await db
        .query("standinLimitOverrides")
        .withIndex("by_account_feature", (q) => q.eq("accountId", accountId))
        .take(limit);
      return docs.map((d) => strip(d) as StandinLimitOverride);
    },
    async listAllOverrides({ limit, after }) {
      // Two bounded index reads: the rest of `after`'s account, then the accounts after it.
      if (!after) {
        const docs = await db.query("standinLimitOverrides").withIndex("by_account_feature").take(limit);
        return docs.map((d) => strip(d) as StandinLimitOverride);
      }
      const sameAccount = await db
        .query("standinLimitOverrides")
        .withIndex("by_account_feature", (q) => q.eq("accountId", after.accountId).gt("featureCode", after.featureCode))
        .take(limit);
      const later =
        sameAccount.length < limit
          ? await db
              .query("standinLimitOverrides")
              .withIndex("by_account_feature", (q) => q.gt("accountId", after.accountId))
              .take(limit - sameAccount.length)
          : [];
      return [...sameAccount, ...later].map((d) => strip(d) as StandinLimitOverride);
    },
    async putOverride(override) {
      const doc = await overrideDoc(override.accountId, override.featureCode);
      await putRow(db, "standinLimitOverrides", doc, override);
    },
    async deleteOverride(accountId, featureCode) {
      const doc = await overrideDoc(accountId, featureCode);
      if (doc) await db.delete(doc._id);
    },
    async getTotal(accountId, featureCode, cycle) {
      const doc = await totalDoc(accountId, featureCode, cycle);
      return doc ? (strip(doc) as StandinMeterTotal) : null;
    },
    async putTotal(total) {
      const doc = await totalDoc(total.accountId, total.featureCode, total.cycle);
      await putRow(db, "standinMeterTotals", doc, total);
    },
    async insertRecord(record) {
      await db.insert("standinMeterRecords", record);
    },
    async listRecords(accountId, featureCode, cycle, limit) {
      const docs = await db
        .query("standinMeterRecords")
        .withIndex("by_cycle", (q) => q.eq("accountId", accountId).eq("featureCode", featureCode).eq("cycle", cycle))
        .order("desc")
        .take(limit);
      return docs.map((d) => strip(d) as StandinMeterRecord);
    },
    async listFaults() {
      const docs = await db.query("standinFaults").withIndex("by_kind").take(20);
      return docs.map((d) => strip(d) as StandinFault);
    },
    async putFault(fault) {
      const doc = await faultDoc(fault.kind);
      await putRow(db, "standinFaults", doc, fault);
    },
    async deleteFault(kind) {
      const doc = await faultDoc(kind);
      if (doc) await db.delete(doc._id);
    },
    async listKeys(limit) {
      const docs = await db.query("standinSigningKeys").withIndex("by_created").order("desc").take(limit);
      return docs.map((d) => strip(d) as StandinSigningKey);
    },
    async insertKey(key) {
      await db.insert("standinSigningKeys", key);
    },
  };
}
