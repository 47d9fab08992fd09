/** The inbox's events, receipts and allowance ledger over Convex (convex/tables/inbox.ts). */
import type { AccountClocks, AllowanceGrant, AllowanceRepo, InboxEvent, InboxReceipt, InboxRepo } from "../../../lib/inbox/repo";
import { strip, type Db } from "./db";

export function inboxRepo(db: Db): InboxRepo {
  const doc = (id: string) =>
    db
      .query("inboxEvents")
      .withIndex("by_event_row_id", (q) => q.eq("id", id))
      .unique();
  const toEvent = (d: { _id: unknown; _creationTime: unknown } & InboxEvent) => strip(d) as InboxEvent;
  return {
    async getEvent(id) {
      const d = await doc(id);
      return d ? toEvent(d) : null;
    },
    async getByDedupeKey(source, dedupeKey) {
      const d = await db
        .query("inboxEvents")
        .withIndex("by_dedupe", (q) => q.eq("source", source).eq("dedupeKey", dedupeKey))
        .unique();
      return d ? toEvent(d) : null;
    },
    async getByEventId(source, eventId) {
      const d = await db
        .query("inboxEvents")
        .withIndex("by_event_id", (q) => q.eq("source", source).eq("eventId", eventId))
        .first();
      return d ? toEvent(d) : null;
    },
    async insertEvent(event) {
      await db.insert("inboxEvents", event);
    },
    async patchEvent(id, patch) {
      const d = await doc(id);
      if (!d) throw new Error(`Invariant broken: patch of missing inbox event ${id}`);
      await db.patch(d._id, Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)));
    },
    async listByStatus(status, limit) {
      const docs = await db
        .query("inboxEvents")
        .withIndex("by_status_time", (q) => q.eq("status", status))
        .take(limit);
      return docs.map(toEvent);
    },
    async listByStatusNewest(status, limit) {
      const docs = await db
        .query("inboxEvents")
        .withIndex("by_status_time", (q) => q.eq("status", status))
        .order("desc")
        .take(limit);
      return docs.map(toEvent);
    },
    async listDue(status, dueAtOrBeforeMs, limit) {
      // null sorts first in Convex; gte(0) keeps only events with a due time.
      const docs = await db
        .query("inboxEvents")
        .withIndex("by_status_due", (q) => q.eq("status", status).gte("dueAtMs", 0).lte("dueAtMs", dueAtOrBeforeMs))
        .take(limit);
      return docs.map(toEvent);
    },
    async listRecent(limit, beforeReceivedAtMs) {
      const docs = await db
        .query("inboxEvents")
        .withIndex("by_received", (q) => (beforeReceivedAtMs === undefined ? q : q.lt("receivedAtMs", beforeReceivedAtMs)))
        .order("desc")
        .take(limit);
      return docs.map(toEvent);
    },
    async listReceivedBetween(fromMs, toMs, limit) {
      const docs = await db
        .query("inboxEvents")
        .withIndex("by_received", (q) => q.gte("receivedAtMs", fromMs).lt("receivedAtMs", toMs))
        .take(limit);
      return docs.map(toEvent);
    },
    async listForAccount(accountId, limit) {
      const docs = await db
        .query("inboxEvents")
        .withIndex("by_account", (q) => q.eq("accountId", accountId))
        .order("desc")
        .take(limit);
      return docs.map(toEvent);
    },
    async countStatus(status, cap) {
      const docs = await db
        .query("inboxEvents")
        .withIndex("by_status_time", (q) => q.eq("status", status))
        .take(cap);
      return docs.length;
    },
    async insertReceipt(receipt) {
      await db.insert("inboxReceipts", receipt);
    },
    async listReceipts(inboxEventId, limit) {
      const docs = await db
        .query("inboxReceipts")
        .withIndex("by_event", (q) => q.eq("inboxEventId", inboxEventId))
        .take(limit);
      return docs.map((d) => strip(d) as InboxReceipt);
    },
  };
}

export function allowanceRepo(db: Db): AllowanceRepo {
  const clocksDoc = (accountId: string) =>
    db
      .query("inboxAccountClocks")
      .withIndex("by_account", (q) => q.eq("accountId", accountId))
      .unique();
  return {
    async getGrant(key) {
      const d = await db
        .query("inboxAllowance")
        .withIndex("by_key", (q) => q.eq("key", key))
        .unique();
      return d ? (strip(d) as AllowanceGrant) : null;
    },
    async insertGrant(grant) {
      await db.insert("inboxAllowance", grant);
    },
    async listGrants(accountId, period, limit) {
      const docs = await db
        .query("inboxAllowance")
        .withIndex("by_period", (q) => q.eq("accountId", accountId).eq("period", period))
        .take(limit);
      return docs.map((d) => strip(d) as AllowanceGrant);
    },
    async getClocks(accountId) {
      const d = await clocksDoc(accountId);
      return d ? (strip(d) as AccountClocks) : null;
    },
    async putClocks(clocks) {
      const d = await clocksDoc(clocks.accountId);
      if (d) await db.patch(d._id, clocks);
      else await db.insert("inboxAccountClocks", clocks);
    },
  };
}
