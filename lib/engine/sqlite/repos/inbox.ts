/** The inbox's events and receipts, and its allowance ledger, over SQLite (migration 0007). */
import type Database from "better-sqlite3";
import type { AccountClocks, AllowanceGrant, AllowanceRepo, InboxEvent, InboxEventPatch, InboxReceipt, InboxRepo } from "../../../inbox/repo";
import { lazyStatement, patcher } from "./lazy";

interface EventRow {
  id: string;
  source: string;
  dedupe_key: string;
  event_id: string | null;
  type: string;
  payload: string;
  occurred_at_ms: number;
  received_at_ms: number;
  customer_id: string | null;
  account_id: string | null;
  status: InboxEvent["status"];
  attempts: number;
  due_at_ms: number | null;
  lease_token: string | null;
  seen_count: number;
  replays: number;
  result: string | null;
  last_error: string | null;
  finished_at_ms: number | null;
  stop_at_attempt: number | null;
}

const eventColumns: Record<keyof InboxEventPatch, keyof EventRow> = {
  eventId: "event_id",
  type: "type",
  occurredAtMs: "occurred_at_ms",
  customerId: "customer_id",
  accountId: "account_id",
  status: "status",
  attempts: "attempts",
  dueAtMs: "due_at_ms",
  leaseToken: "lease_token",
  seenCount: "seen_count",
  replays: "replays",
  result: "result",
  lastError: "last_error",
  finishedAtMs: "finished_at_ms",
  stopAtAttempt: "stop_at_attempt",
};

function toEvent(row: EventRow): InboxEvent {
  return {
    id: row.id,
    source: row.source,
    dedupeKey: row.dedupe_key,
    eventId: row.event_id,
    type: row.type,
    payload: row.payload,
    occurredAtMs: row.occurred_at_ms,
    receivedAtMs: row.received_at_ms,
    customerId: row.customer_id,
    accountId: row.account_id,
    status: row.status,
    attempts: row.attempts,
    dueAtMs: row.due_at_ms,
    leaseToken: row.lease_token,
    seenCount: row.seen_count,
    replays: row.replays,
    result: row.result,
    lastError: row.last_error,
    finishedAtMs: row.finished_at_ms,
    stopAtAttempt: row.stop_at_attempt,
  };
}

const one = (row: unknown): InboxEvent | null => (row ? toEvent(row as EventRow) : null);
const many = (rows: unknown[]): InboxEvent[] => (rows as EventRow[]).map(toEvent);

export function inboxRepo(db: Database.Database): InboxRepo {
  const byId = lazyStatement(() => db.prepare("SELECT * FROM inbox_events WHERE id = ?"));
  const byDedupe = lazyStatement(() => db.prepare("SELECT * FROM inbox_events WHERE source = ? AND dedupe_key = ?"));
  const byEventId = lazyStatement(() => db.prepare("SELECT * FROM inbox_events WHERE source = ? AND event_id = ? LIMIT 1"));
  const insert = lazyStatement(() =>
    db.prepare(
      `INSERT INTO inbox_events (id, source, dedupe_key, event_id, type, payload, occurred_at_ms, received_at_ms, customer_id, account_id, status,
         attempts, due_at_ms, lease_token, seen_count, replays, result, last_error, finished_at_ms, stop_at_attempt)
       VALUES (@id, @source, @dedupeKey, @eventId, @type, @payload, @occurredAtMs, @receivedAtMs, @customerId, @accountId, @status,
         @attempts, @dueAtMs, @leaseToken, @seenCount, @replays, @result, @lastError, @finishedAtMs, @stopAtAttempt)`,
    ),
  );
  const byStatus = lazyStatement(() => db.prepare("SELECT * FROM inbox_events WHERE status = ? ORDER BY occurred_at_ms, id LIMIT ?"));
  const byStatusNewest = lazyStatement(() => db.prepare("SELECT * FROM inbox_events WHERE status = ? ORDER BY occurred_at_ms DESC, id DESC LIMIT ?"));
  const due = lazyStatement(() => db.prepare("SELECT * FROM inbox_events WHERE status = ? AND due_at_ms <= ? ORDER BY due_at_ms LIMIT ?"));
  const recent = lazyStatement(() => db.prepare("SELECT * FROM inbox_events ORDER BY received_at_ms DESC LIMIT ?"));
  const recentBefore = lazyStatement(() => db.prepare("SELECT * FROM inbox_events WHERE received_at_ms < ? ORDER BY received_at_ms DESC LIMIT ?"));
  const between = lazyStatement(() => db.prepare("SELECT * FROM inbox_events WHERE received_at_ms >= ? AND received_at_ms < ? ORDER BY received_at_ms LIMIT ?"));
  const forAccount = lazyStatement(() => db.prepare("SELECT * FROM inbox_events WHERE account_id = ? ORDER BY occurred_at_ms DESC LIMIT ?"));
  const count = lazyStatement(() => db.prepare("SELECT count(*) AS n FROM (SELECT 1 FROM inbox_events WHERE status = ? LIMIT ?)"));
  const insertReceipt = lazyStatement(() =>
    db.prepare(
      `INSERT INTO inbox_receipts (id, inbox_event_id, webhook_id, received_at_ms, stored, size_bytes)
       VALUES (@id, @inboxEventId, @webhookId, @receivedAtMs, @stored, @sizeBytes)`,
    ),
  );
  const receipts = lazyStatement(() => db.prepare("SELECT * FROM inbox_receipts WHERE inbox_event_id = ? ORDER BY received_at_ms LIMIT ?"));
  const patchEvent = patcher<InboxEventPatch>(db, "inbox_events", eventColumns);

  return {
    async getEvent(id) {
      return one(byId().get(id));
    },
    async getByDedupeKey(source, dedupeKey) {
      return one(byDedupe().get(source, dedupeKey));
    },
    async getByEventId(source, eventId) {
      return one(byEventId().get(source, eventId));
    },
    async insertEvent(event) {
      insert().run(event);
    },
    async patchEvent(id, patch) {
      patchEvent(id, patch);
    },
    async listByStatus(status, limit) {
      return many(byStatus().all(status, limit));
    },
    async listByStatusNewest(status, limit) {
      return many(byStatusNewest().all(status, limit));
    },
    async listDue(status, dueAtOrBeforeMs, limit) {
      return many(due().all(status, dueAtOrBeforeMs, limit));
    },
    async listRecent(limit, beforeReceivedAtMs) {
      return many(beforeReceivedAtMs === undefined ? recent().all(limit) : recentBefore().all(beforeReceivedAtMs, limit));
    },
    async listReceivedBetween(fromMs, toMs, limit) {
      return many(between().all(fromMs, toMs, limit));
    },
    async listForAccount(accountId, limit) {
      return many(forAccount().all(accountId, limit));
    },
    async countStatus(status, cap) {
      return (count().get(status, cap) as { n: number }).n;
    },
    async insertReceipt(receipt) {
      insertReceipt().run({ ...receipt, stored: receipt.stored ? 1 : 0 });
    },
    async listReceipts(inboxEventId, limit) {
      const rows = receipts().all(inboxEventId, limit) as { id: string; inbox_event_id: string; webhook_id: string | null; received_at_ms: number; stored: number; size_bytes: number }[];
      return rows.map(
        (r): InboxReceipt => ({ id: r.id, inboxEventId: r.inbox_event_id, webhookId: r.webhook_id, receivedAtMs: r.received_at_ms, stored: r.stored === 1, sizeBytes: r.size_bytes }),
      );
    },
  };
}

interface GrantRow {
  key: string;
  account_id: string;
  period: string;
  plan: string;
  units: number;
  reason: string;
  inbox_event_id: string | null;
  granted_at_ms: number;
}

function toGrant(row: GrantRow): AllowanceGrant {
  return {
    key: row.key,
    accountId: row.account_id,
    period: row.period,
    plan: row.plan,
    units: row.units,
    reason: row.reason,
    inboxEventId: row.inbox_event_id,
    grantedAtMs: row.granted_at_ms,
  };
}

export function allowanceRepo(db: Database.Database): AllowanceRepo {
  const byKey = lazyStatement(() => db.prepare("SELECT * FROM inbox_allowance WHERE key = ?"));
  const insert = lazyStatement(() =>
    db.prepare(
      `INSERT INTO inbox_allowance (key, account_id, period, plan, units, reason, inbox_event_id, granted_at_ms)
       VALUES (@key, @accountId, @period, @plan, @units, @reason, @inboxEventId, @grantedAtMs)`,
    ),
  );
  const forPeriod = lazyStatement(() => db.prepare("SELECT * FROM inbox_allowance WHERE account_id = ? AND period = ? ORDER BY granted_at_ms LIMIT ?"));
  const clocks = lazyStatement(() => db.prepare("SELECT * FROM inbox_account_clocks WHERE account_id = ?"));
  const putClocks = lazyStatement(() =>
    db.prepare(
      `INSERT INTO inbox_account_clocks (account_id, billing_changed_at_ms, agreement_changed_at_ms) VALUES (@accountId, @billingChangedAtMs, @agreementChangedAtMs)
       ON CONFLICT (account_id) DO UPDATE SET billing_changed_at_ms = excluded.billing_changed_at_ms, agreement_changed_at_ms = excluded.agreement_changed_at_ms`,
    ),
  );
  return {
    async getGrant(key) {
      const row = byKey().get(key) as GrantRow | undefined;
      return row ? toGrant(row) : null;
    },
    async insertGrant(grant) {
      insert().run(grant);
    },
    async listGrants(accountId, period, limit) {
      return (forPeriod().all(accountId, period, limit) as GrantRow[]).map(toGrant);
    },
    async getClocks(accountId) {
      const row = clocks().get(accountId) as { account_id: string; billing_changed_at_ms: number | null; agreement_changed_at_ms: number | null } | undefined;
      return row ? ({ accountId: row.account_id, billingChangedAtMs: row.billing_changed_at_ms, agreementChangedAtMs: row.agreement_changed_at_ms } satisfies AccountClocks) : null;
    },
    async putClocks(value) {
      putClocks().run(value);
    },
  };
}
