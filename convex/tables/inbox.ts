import { defineTable } from "convex/server";
import { v } from "convex/values";

const nullable = <T extends Parameters<typeof v.union>[0]>(value: T) => v.union(value, v.null());

export const inboxTables = {
  // One row per distinct billing webhook event (Part C). Written by intake
  // (inbox.receive), the worker (claim, apply, fail) and replay; read by the
  // worker, the Inbox and account pages, the Engine Room and /api/health.
  inboxEvents: defineTable({
    id: v.string(), // evt_…
    source: v.string(), // "kinde"
    dedupeKey: v.string(), // webhook-id header, else event_id; unique per source
    eventId: nullable(v.string()), // Kinde's event_id
    type: v.string(),
    payload: v.string(), // the verified claims as JSON text
    occurredAtMs: v.number(), // event_timestamp, else timestamp
    receivedAtMs: v.number(),
    customerId: nullable(v.string()),
    accountId: nullable(v.string()),
    status: v.union(v.literal("received"), v.literal("processing"), v.literal("applied"), v.literal("ignored"), v.literal("failed"), v.literal("dead")),
    attempts: v.number(),
    dueAtMs: nullable(v.number()), // received/failed: next attempt; processing: lease expiry; null once finished
    leaseToken: nullable(v.string()),
    seenCount: v.number(), // deliveries of this event
    replays: v.number(),
    result: nullable(v.string()), // the sentence a person reads
    lastError: nullable(v.string()),
    finishedAtMs: nullable(v.number()),
    stopAtAttempt: nullable(v.number()), // Engine Room drill
  })
    .index("by_event_row_id", ["id"])
    .index("by_dedupe", ["source", "dedupeKey"])
    .index("by_event_id", ["source", "eventId"])
    .index("by_status_time", ["status", "occurredAtMs", "id"])
    .index("by_status_due", ["status", "dueAtMs"])
    .index("by_account", ["accountId", "occurredAtMs"])
    .index("by_received", ["receivedAtMs"]),
  // One row per delivery (every copy). Written by intake; read by the Inbox page and the Engine Room.
  inboxReceipts: defineTable({
    id: v.string(), // rcp_…
    inboxEventId: v.string(),
    webhookId: nullable(v.string()),
    receivedAtMs: v.number(),
    stored: v.boolean(), // true for the copy that stored the event
    sizeBytes: v.number(),
  }).index("by_event", ["inboxEventId", "receivedAtMs"]),
  // The allowance ledger: one keyed row per grant (plan:account:period). Written by
  // the plan and payment handlers (and the Engine Room's naive handler); read by the pages.
  inboxAllowance: defineTable({
    key: v.string(),
    accountId: v.string(),
    period: v.string(), // YYYY-MM, the account's billing cycle
    plan: v.string(),
    units: v.number(), // whole units added to the period's balance
    reason: v.string(),
    inboxEventId: nullable(v.string()),
    grantedAtMs: v.number(),
  })
    .index("by_key", ["key"])
    .index("by_period", ["accountId", "period", "grantedAtMs"]),
  // The time guards of an account's billing status and agreement id. Written by the handlers.
  inboxAccountClocks: defineTable({
    accountId: v.string(),
    billingChangedAtMs: nullable(v.number()), // event time of the payment event that set the billing status
    agreementChangedAtMs: nullable(v.number()), // event time of the plan event that set the agreement id
  }).index("by_account", ["accountId"]),
};
