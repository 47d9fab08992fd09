/**
 * The inbox (Part C): every Kinde billing webhook, stored before it is
 * answered, and the rows its handlers write.
 *
 * inbox_events   one row per distinct event (unique on source + dedupe key).
 *                Written by intake (inbox.receive), the worker (claim, apply,
 *                fail) and replay; read by the worker, the Inbox page, the
 *                account page, the Engine Room and /api/health.
 * inbox_receipts one row per delivery (every copy), written by intake; read by
 *                the Inbox page and the Engine Room (copies seen, copies dropped).
 * inbox_allowance the allowance ledger: one keyed row per grant
 *                (plan:account:period), so every handler that tries to grant
 *                the same allowance finds the row and skips it. Written by the
 *                plan and payment handlers (and the Engine Room's naive handler,
 *                with unkeyed rows); read by the pages (the balance).
 * inbox_account_clocks the time guards of an account's billing status and
 *                agreement id (the event times that set them), so a late
 *                event cannot overwrite a newer one; written by the handlers.
 */

export const INBOX_STATUSES = ["received", "processing", "applied", "ignored", "failed", "dead"] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];

export interface InboxEvent {
  id: string; // evt_…
  /** Who sent it: "kinde" (the stand-in sends Kinde-shaped events too). */
  source: string;
  /** The webhook-id header, else the event's event_id. Unique per source. */
  dedupeKey: string;
  /** Kinde's event_id (event_…), when the payload has one; a second key for copies. */
  eventId: string | null;
  type: string;
  /** The verified token's claims, as JSON text. */
  payload: string;
  /** The event's own time: event_timestamp, else timestamp. Claims are ordered by it; the time guard compares it. */
  occurredAtMs: number;
  /** When the first copy arrived. */
  receivedAtMs: number;
  /** data.customer_id (the field path is configurable in lib/inbox/fields.ts). */
  customerId: string | null;
  /** The account the customer belonged to when the event arrived or was last applied; null when unknown. */
  accountId: string | null;
  status: InboxStatus;
  /** Claims so far (each claim is one attempt); replay starts again at 0. */
  attempts: number;
  /** received/failed: when it may be claimed; processing: when its lease runs out; null once finished. */
  dueAtMs: number | null;
  /** The token of the claim in force; apply and fail must present it. */
  leaseToken: string | null;
  /** Deliveries of this event, the first included. */
  seenCount: number;
  replays: number;
  /** The sentence a person reads: what applying it did, or why it was ignored. */
  result: string | null;
  /** The last failure's message (failed, dead). */
  lastError: string | null;
  finishedAtMs: number | null;
  /** Engine Room drill: the worker stops in the middle of this attempt (set only by an operator). */
  stopAtAttempt: number | null;
}

export type InboxEventPatch = Partial<Omit<InboxEvent, "id" | "source" | "dedupeKey" | "payload" | "receivedAtMs">>;

export interface InboxReceipt {
  id: string; // rcp_…
  /** Our event id (evt_…). */
  inboxEventId: string;
  webhookId: string | null;
  receivedAtMs: number;
  /** True for the delivery that stored the event; false for a copy, counted and dropped. */
  stored: boolean;
  sizeBytes: number;
}

export interface InboxRepo {
  getEvent(id: string): Promise<InboxEvent | null>;
  getByDedupeKey(source: string, dedupeKey: string): Promise<InboxEvent | null>;
  /** The first stored event with this event_id (two webhooks may deliver one event under two webhook-ids). */
  getByEventId(source: string, eventId: string): Promise<InboxEvent | null>;
  insertEvent(event: InboxEvent): Promise<void>;
  patchEvent(id: string, patch: InboxEventPatch): Promise<void>;
  /** Events in one status, oldest event time first. */
  listByStatus(status: InboxStatus, limit: number): Promise<InboxEvent[]>;
  /** Events in one status, newest event time first (the Inbox page's filter). */
  listByStatusNewest(status: InboxStatus, limit: number): Promise<InboxEvent[]>;
  /** Events in one status whose dueAtMs is at or before `dueAtOrBeforeMs`, soonest first. */
  listDue(status: InboxStatus, dueAtOrBeforeMs: number, limit: number): Promise<InboxEvent[]>;
  /** Newest arrival first; `beforeReceivedAtMs` pages. */
  listRecent(limit: number, beforeReceivedAtMs?: number): Promise<InboxEvent[]>;
  /** Events that arrived in [fromMs, toMs), oldest first. */
  listReceivedBetween(fromMs: number, toMs: number, limit: number): Promise<InboxEvent[]>;
  /** One account's events, newest event time first. */
  listForAccount(accountId: string, limit: number): Promise<InboxEvent[]>;
  /** How many events are in a status, counting at most `cap`. */
  countStatus(status: InboxStatus, cap: number): Promise<number>;
  insertReceipt(receipt: InboxReceipt): Promise<void>;
  /** One event's deliveries, oldest first. */
  listReceipts(inboxEventId: string, limit: number): Promise<InboxReceipt[]>;
}

export interface AllowanceGrant {
  /** plan:account:period for the inbox's grants; naive:<id> for the Engine Room's naive handler. */
  key: string;
  accountId: string;
  /** The billing cycle's name (YYYY-MM), the account's cycle (lib/usage/cycle.ts). */
  period: string;
  plan: string;
  /** Whole units added to the period's balance. */
  units: number;
  reason: string;
  /** The inbox event that granted it (evt_…), or null. */
  inboxEventId: string | null;
  grantedAtMs: number;
}

export interface AccountClocks {
  accountId: string;
  /** Event time of the payment event that set the account's billing status; null: never set by an event. */
  billingChangedAtMs: number | null;
  /** Event time of the plan event that set the account's agreement id; null: never set by an event. */
  agreementChangedAtMs: number | null;
}

export interface AllowanceRepo {
  getGrant(key: string): Promise<AllowanceGrant | null>;
  insertGrant(grant: AllowanceGrant): Promise<void>;
  /** The grants of one account and period (at most `limit`). */
  listGrants(accountId: string, period: string, limit: number): Promise<AllowanceGrant[]>;
  getClocks(accountId: string): Promise<AccountClocks | null>;
  putClocks(clocks: AccountClocks): Promise<void>;
}
