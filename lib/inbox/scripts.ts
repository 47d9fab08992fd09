/**
 * The inbox's transaction scripts (Part C). Intake stores (receive), the
 * worker claims, applies and records failures, an operator or an account
 * member replays; the pages read.
 */
import { z } from "zod";
import type { Account } from "../accounts/repo";
import { actorSchema, recordAudit } from "../audit/scripts";
import { AppError } from "../errors";
import { mutation, query } from "../scripts/define";
import type { Tx } from "../store/port";
import { balanceOf, periodOf } from "./allowance";
import { afterFailure, CLAIM_BATCH_MAX, chooseClaims, leaseFor, MAX_ATTEMPTS } from "./decide";
import { EVENT_FIELD_PATHS, readFields } from "./fields";
import { decide, HANDLERS, type Decision, type Write } from "./handlers";
import { INBOX_STATUSES, type AccountClocks, type InboxEvent } from "./repo";
import { dropCachedLimit, queueReconcile } from "./seams";

export const SOURCE_KINDE = "kinde";
/** The largest stored payload: the intake's 64 KB body limit, decoded. */
export const PAYLOAD_CHARS_MAX = 64 * 1024;
const LIST_LIMIT_MAX = 200;
export const REPLAY_MANY_MAX = 500;
export const COUNT_CAP = 1000;

const inboxEventId = z.string().regex(/^evt_[0-9a-z]{20}$/, "an inbox event id (evt_ followed by 20 characters)");
const accountId = z.string().regex(/^acct_[0-9a-z]{20}$/, "an account id (acct_ followed by 20 characters)");
const leaseToken = z.string().regex(/^lease_[0-9a-z]{20}$/, "a lease token");
const status = z.enum(INBOX_STATUSES);
const timeMs = z.number().int().min(0).max(8.64e15);

export const eventViewSchema = z.object({
  id: z.string(),
  source: z.string(),
  dedupeKey: z.string(),
  eventId: z.string().nullable(),
  type: z.string(),
  occurredAtMs: z.number(),
  receivedAtMs: z.number(),
  customerId: z.string().nullable(),
  accountId: z.string().nullable(),
  status,
  attempts: z.number(),
  dueAtMs: z.number().nullable(),
  seenCount: z.number(),
  replays: z.number(),
  result: z.string().nullable(),
  lastError: z.string().nullable(),
  finishedAtMs: z.number().nullable(),
  stopAtAttempt: z.number().nullable(),
});
export type InboxEventView = z.output<typeof eventViewSchema>;

function view(event: InboxEvent): InboxEventView {
  const { payload: _payload, leaseToken: _lease, ...rest } = event;
  return rest;
}

// ---------------------------------------------------------------- intake

export const receiveArgs = z.strictObject({
  source: z.string().regex(/^[a-z]{1,20}$/),
  dedupeKey: z.string().min(1).max(200),
  webhookId: z.string().min(1).max(200).nullable(),
  eventId: z.string().min(1).max(200).nullable(),
  type: z.string().min(1).max(100),
  payload: z.string().max(PAYLOAD_CHARS_MAX),
  occurredAtMs: timeMs,
  customerId: z.string().min(1).max(200).nullable(),
  sizeBytes: z.number().int().min(0).max(1 << 20),
  /** Engine Room drill (operator only): the worker stops in the middle of this attempt. */
  stopAtAttempt: z.number().int().min(1).max(MAX_ATTEMPTS).nullable().default(null),
});

/**
 * Stores one delivery: the first copy of an event inserts it (status
 * received), every later copy — same webhook-id, or the same event_id under
 * another webhook — adds one to seen_count and changes nothing else. Each
 * delivery writes one receipt. The caller answers 200 only after this commits.
 */
export const receive = mutation(
  "inbox.receive",
  receiveArgs,
  z.object({ inboxEventId: z.string(), stored: z.boolean(), seenCount: z.number(), status }),
  async (tx, args) => {
    const existing =
      (await tx.store.inbox.getByDedupeKey(args.source, args.dedupeKey)) ??
      (args.eventId !== null ? await tx.store.inbox.getByEventId(args.source, args.eventId) : null);
    const receipt = { id: tx.newId("rcp"), webhookId: args.webhookId, receivedAtMs: tx.nowMs, sizeBytes: args.sizeBytes };
    if (existing) {
      const seenCount = existing.seenCount + 1;
      await tx.store.inbox.patchEvent(existing.id, { seenCount });
      await tx.store.inbox.insertReceipt({ ...receipt, inboxEventId: existing.id, stored: false });
      return { inboxEventId: existing.id, stored: false, seenCount, status: existing.status };
    }
    const account = args.customerId !== null ? await tx.store.accounts.getByKindeCustomerId(args.customerId) : null;
    const event: InboxEvent = {
      id: tx.newId("evt"),
      source: args.source,
      dedupeKey: args.dedupeKey,
      eventId: args.eventId,
      type: args.type,
      payload: args.payload,
      occurredAtMs: args.occurredAtMs,
      receivedAtMs: tx.nowMs,
      customerId: args.customerId,
      accountId: account?.id ?? null,
      status: "received",
      attempts: 0,
      dueAtMs: tx.nowMs,
      leaseToken: null,
      seenCount: 1,
      replays: 0,
      result: null,
      lastError: null,
      finishedAtMs: null,
      stopAtAttempt: args.stopAtAttempt,
    };
    await tx.store.inbox.insertEvent(event);
    await tx.store.inbox.insertReceipt({ ...receipt, inboxEventId: event.id, stored: true });
    return { inboxEventId: event.id, stored: true, seenCount: 1, status: event.status };
  },
);

// ---------------------------------------------------------------- worker

const diedSchema = z.object({ id: z.string(), type: z.string(), attempts: z.number(), lastError: z.string().nullable(), accountId: z.string().nullable() });

/**
 * Claims up to 25 events with a 30 s lease: new ones, failed ones whose wait
 * is over, and processing ones whose worker's lease ran out (that worker
 * died). Oldest event time first. One transaction, so two workers never hold
 * one event; each claim is one attempt. An event whose worker died on its
 * sixth attempt is not run again: it is dead.
 */
export const claim = mutation(
  "inbox.claim",
  z.strictObject({ limit: z.number().int().min(1).max(CLAIM_BATCH_MAX).default(CLAIM_BATCH_MAX) }),
  z.object({
    claimed: z.array(z.object({ id: z.string(), leaseToken: z.string(), attempt: z.number(), stopMidApply: z.boolean() })),
    died: z.array(diedSchema),
  }),
  async (tx, { limit }) => {
    const now = tx.nowMs;
    const candidates = [
      ...(await tx.store.inbox.listByStatus("received", limit)),
      ...(await tx.store.inbox.listDue("failed", now, limit)),
      // A lease is in force until its expiry time has passed.
      ...(await tx.store.inbox.listDue("processing", now - 1, limit)),
    ];
    const claimed: { id: string; leaseToken: string; attempt: number; stopMidApply: boolean }[] = [];
    const died: z.output<typeof diedSchema>[] = [];
    for (const event of chooseClaims(candidates, limit)) {
      if (event.status === "processing" && event.attempts >= MAX_ATTEMPTS) {
        const lastError = `the worker stopped during each of its ${event.attempts} attempts`;
        await tx.store.inbox.patchEvent(event.id, { status: "dead", dueAtMs: null, leaseToken: null, lastError, result: `dead: ${lastError}`, finishedAtMs: now });
        died.push({ id: event.id, type: event.type, attempts: event.attempts, lastError, accountId: event.accountId });
        continue;
      }
      const attempt = event.attempts + 1;
      const { leaseMs, stopMidApply } = leaseFor(event, attempt);
      const token = tx.newId("lease");
      await tx.store.inbox.patchEvent(event.id, { status: "processing", attempts: attempt, dueAtMs: now + leaseMs, leaseToken: token });
      claimed.push({ id: event.id, leaseToken: token, attempt, stopMidApply });
    }
    return { claimed, died };
  },
);

/** Thrown inside apply to stop it after its first write (a drill, or a test of a crash): the transaction rolls back whole. */
export class InterruptedApply extends Error {
  constructor() {
    super("The worker stopped in the middle of applying this event (drill); the transaction rolled back.");
    this.name = "InterruptedApply";
  }
}

export function isInterruptedApply(error: unknown): boolean {
  return error instanceof InterruptedApply || (error instanceof Error && error.message.startsWith("The worker stopped in the middle"));
}

/**
 * Runs the event's handler and marks the event applied or ignored, in one
 * transaction: a crash anywhere in it leaves nothing half-applied, and the
 * event runs again from the start. The lease token must still be in force.
 */
export const apply = mutation(
  "inbox.apply",
  z.strictObject({ inboxEventId, leaseToken, interruptAfterFirstWrite: z.boolean().default(false) }),
  z.object({ outcome: z.enum(["applied", "ignored", "lease_lost"]), result: z.string().nullable() }),
  async (tx, args) => {
    const event = await tx.store.inbox.getEvent(args.inboxEventId);
    if (!event || event.status !== "processing" || event.leaseToken !== args.leaseToken) return { outcome: "lease_lost" as const, result: null };
    const { decision, account } = await decideEvent(tx, event);
    let written = 0;
    const interrupt = () => {
      if (args.interruptAfterFirstWrite) throw new InterruptedApply();
    };
    for (const write of decision.writes) {
      await applyWrite(tx, event, account!, write);
      if (++written === 1) interrupt();
    }
    if (written === 0) interrupt();
    await tx.store.inbox.patchEvent(event.id, {
      status: decision.outcome,
      result: decision.result,
      dueAtMs: null,
      leaseToken: null,
      lastError: null,
      finishedAtMs: tx.nowMs,
      accountId: account?.id ?? event.accountId,
    });
    return { outcome: decision.outcome, result: decision.result };
  },
);

async function decideEvent(tx: Tx, event: InboxEvent): Promise<{ decision: Decision; account: Account | null }> {
  const ignore = (reason: string): { decision: Decision; account: null } => ({ decision: { outcome: "ignored", result: `ignored: ${reason}`, writes: [] }, account: null });
  if (!HANDLERS.has(event.type)) return ignore(`${event.type} is not a billing event this app handles`);
  if (event.customerId === null) return ignore(`the event names no customer (looked at ${EVENT_FIELD_PATHS.customerId.join(", ")})`);
  const account = await tx.store.accounts.getByKindeCustomerId(event.customerId);
  if (!account) return ignore(`no account has Kinde customer ${event.customerId}`);
  const period = periodOf(event.occurredAtMs, account.cycleAnchorMs);
  const decision = decide({
    event: { id: event.id, type: event.type, occurredAtMs: event.occurredAtMs, fields: readFields(JSON.parse(event.payload)) },
    account,
    period,
    grants: await tx.store.allowance.listGrants(account.id, period.name, GRANTS_PER_PERIOD_MAX),
    clocks: await tx.store.allowance.getClocks(account.id),
  });
  return { decision, account };
}

/** Grants one period can hold that a handler reads: one per plan, plus the Engine Room's naive rows. */
const GRANTS_PER_PERIOD_MAX = 200;

async function applyWrite(tx: Tx, event: InboxEvent, account: Account, write: Write): Promise<void> {
  switch (write.kind) {
    case "setPlan":
      return tx.store.accounts.patch(account.id, { plan: write.plan, planChangedAtMs: write.planChangedAtMs });
    case "setAgreement":
      await putClock(tx, account.id, { agreementChangedAtMs: write.changedAtMs });
      return tx.store.accounts.patch(account.id, { agreementId: write.agreementId });
    case "grant":
      // The handler saw no row with this key in this transaction; a second one is a broken invariant, not an outcome.
      return tx.store.allowance.insertGrant({
        key: write.key,
        accountId: account.id,
        period: write.period,
        plan: write.plan,
        units: write.units,
        reason: write.reason,
        inboxEventId: event.id,
        grantedAtMs: tx.nowMs,
      });
    case "setBillingStatus":
      await putClock(tx, account.id, { billingChangedAtMs: write.changedAtMs });
      return tx.store.accounts.patch(account.id, { billingStatus: write.status });
    case "dropCachedLimit":
      await dropCachedLimit(tx, account.id);
      return;
    case "queueReconcile":
      await queueReconcile(tx, account.id);
      return;
  }
}

async function putClock(tx: Tx, accountId: string, change: Partial<Omit<AccountClocks, "accountId">>): Promise<void> {
  const stored = (await tx.store.allowance.getClocks(accountId)) ?? { accountId, billingChangedAtMs: null, agreementChangedAtMs: null };
  await tx.store.allowance.putClocks({ ...stored, ...change });
}

/**
 * Records a failed attempt (the handler threw; its transaction rolled back):
 * failed, tried again after 5 s, 30 s, 2 min, 10 min, 1 h; the sixth failure
 * makes it dead — kept, visible, counted, alerted.
 */
export const fail = mutation(
  "inbox.fail",
  z.strictObject({ inboxEventId, leaseToken, error: z.string().max(2000) }),
  z.object({ status: z.enum(["failed", "dead", "lease_lost"]), nextAttemptAtMs: z.number().nullable(), died: diedSchema.nullable() }),
  async (tx, args) => {
    const event = await tx.store.inbox.getEvent(args.inboxEventId);
    if (!event || event.status !== "processing" || event.leaseToken !== args.leaseToken) return { status: "lease_lost" as const, nextAttemptAtMs: null, died: null };
    const lastError = args.error.slice(0, 500) || "the handler failed without a message";
    const next = afterFailure(event.attempts, tx.nowMs);
    if (next.status === "dead") {
      await tx.store.inbox.patchEvent(event.id, { status: "dead", dueAtMs: null, leaseToken: null, lastError, result: `dead after ${event.attempts} attempts: ${lastError}`, finishedAtMs: tx.nowMs });
      return { status: "dead" as const, nextAttemptAtMs: null, died: { id: event.id, type: event.type, attempts: event.attempts, lastError, accountId: event.accountId } };
    }
    await tx.store.inbox.patchEvent(event.id, { status: "failed", dueAtMs: next.nextAttemptAtMs, leaseToken: null, lastError });
    return { status: "failed" as const, nextAttemptAtMs: next.nextAttemptAtMs, died: null };
  },
);

// ---------------------------------------------------------------- replay

async function requeue(tx: Tx, event: InboxEvent): Promise<void> {
  await tx.store.inbox.patchEvent(event.id, {
    status: "received",
    attempts: 0,
    dueAtMs: tx.nowMs,
    leaseToken: null,
    lastError: null,
    finishedAtMs: null,
    stopAtAttempt: null,
    replays: event.replays + 1,
  });
}

/**
 * Puts one stored event back in the queue. It runs through the same guards,
 * so a replayed payment finds its row and writes nothing, and an old plan
 * change is ignored. `asAccountId` scopes the replay to one account (a key or
 * a member: another account's event is the same 404 as a missing one; null:
 * the operator). The audit row, with the actor, commits with the requeue.
 */
export const replay = mutation(
  "inbox.replay",
  z.strictObject({ inboxEventId, asAccountId: accountId.nullable().default(null), actor: actorSchema.optional() }),
  eventViewSchema,
  async (tx, args) => {
    const event = await tx.store.inbox.getEvent(args.inboxEventId);
    if (!event || (args.asAccountId !== null && event.accountId !== args.asAccountId)) throw new AppError("not_found", `No inbox event ${args.inboxEventId}.`);
    await requeue(tx, event);
    if (args.actor) await recordAudit(tx, args.actor, "inbox.replay", event.id, event.accountId, { type: event.type, statusBefore: event.status });
    return view((await tx.store.inbox.getEvent(event.id))!);
  },
);

/** Operator: puts every dead event, or every event that arrived in a time window, back in the queue (at most `limit` per call). */
export const replayMany = mutation(
  "inbox.replayMany",
  z.strictObject({
    filter: z.discriminatedUnion("kind", [
      z.strictObject({ kind: z.literal("dead") }),
      z.strictObject({ kind: z.literal("window"), fromMs: timeMs, toMs: timeMs }).refine((w) => w.fromMs < w.toMs, { message: "fromMs must be before toMs" }),
    ]),
    limit: z.number().int().min(1).max(REPLAY_MANY_MAX).default(200),
    actor: actorSchema.optional(),
  }),
  z.object({ inboxEventIds: z.array(z.string()), more: z.boolean() }),
  async (tx, { filter, limit, actor }) => {
    const found =
      filter.kind === "dead"
        ? await tx.store.inbox.listByStatus("dead", limit + 1)
        : await tx.store.inbox.listReceivedBetween(filter.fromMs, filter.toMs, limit + 1);
    const events = found.slice(0, limit);
    for (const event of events) await requeue(tx, event);
    const more = found.length > limit;
    if (actor) await recordAudit(tx, actor, "inbox.replay_many", filter.kind, null, { filter, requeued: events.length, more, inboxEventIds: events.slice(0, 20).map((e) => e.id) });
    return { inboxEventIds: events.map((e) => e.id), more };
  },
);

// ---------------------------------------------------------------- reads

export const get = query(
  "inbox.get",
  /** `asAccountId`: another account's event reads as missing (null: the operator). */
  z.strictObject({ inboxEventId, asAccountId: accountId.nullable().default(null) }),
  eventViewSchema
    .extend({
      payload: z.string(),
      receipts: z.array(z.object({ id: z.string(), webhookId: z.string().nullable(), receivedAtMs: z.number(), stored: z.boolean(), sizeBytes: z.number() })),
    })
    .nullable(),
  async (tx, args) => {
    const event = await tx.store.inbox.getEvent(args.inboxEventId);
    if (!event || (args.asAccountId !== null && event.accountId !== args.asAccountId)) return null;
    const receipts = await tx.store.inbox.listReceipts(event.id, 100);
    return { ...view(event), payload: event.payload, receipts: receipts.map(({ inboxEventId: _e, ...r }) => r) };
  },
);

export const list = query(
  "inbox.list",
  z.strictObject({ status: status.optional(), limit: z.number().int().min(1).max(LIST_LIMIT_MAX).default(100), beforeReceivedAtMs: timeMs.optional() }),
  z.object({ events: z.array(eventViewSchema) }),
  async (tx, args) => {
    const events =
      args.status !== undefined ? await tx.store.inbox.listByStatusNewest(args.status, args.limit) : await tx.store.inbox.listRecent(args.limit, args.beforeReceivedAtMs);
    return { events: events.map(view) };
  },
);

export const listForAccount = query(
  "inbox.listForAccount",
  z.strictObject({ accountId, limit: z.number().int().min(1).max(LIST_LIMIT_MAX).default(50) }),
  z.object({ events: z.array(eventViewSchema) }),
  async (tx, args) => ({ events: (await tx.store.inbox.listForAccount(args.accountId, args.limit)).map(view) }),
);

/** How many events are in each status, each counted up to 1,000 (dead is what /api/health and the banner show). */
export const counts = query(
  "inbox.counts",
  z.strictObject({}),
  z.object({ byStatus: z.record(z.string(), z.number()), cap: z.number() }),
  async (tx) => {
    const byStatus: Record<string, number> = {};
    for (const s of INBOX_STATUSES) byStatus[s] = await tx.store.inbox.countStatus(s, COUNT_CAP);
    return { byStatus, cap: COUNT_CAP };
  },
);

export const deadCount = query("inbox.deadCount", z.strictObject({}), z.object({ dead: z.number(), cap: z.number() }), async (tx) => ({
  dead: await tx.store.inbox.countStatus("dead", COUNT_CAP),
  cap: COUNT_CAP,
}));

/** The statuses of given events (a replay's answer counts how many ended applied and ignored). */
export const statuses = query(
  "inbox.statuses",
  z.strictObject({ inboxEventIds: z.array(inboxEventId).max(REPLAY_MANY_MAX) }),
  z.object({ events: z.array(z.object({ id: z.string(), status, result: z.string().nullable(), accountId: z.string().nullable() })) }),
  async (tx, args) => {
    const events: { id: string; status: InboxEvent["status"]; result: string | null; accountId: string | null }[] = [];
    for (const id of args.inboxEventIds) {
      const event = await tx.store.inbox.getEvent(id);
      if (event) events.push({ id, status: event.status, result: event.result, accountId: event.accountId });
    }
    return { events };
  },
);

/**
 * An account's billing state as the inbox keeps it: plan, the balance of the
 * period that contains `atMs` (default now), its grants, and how many of its
 * events still wait for the worker (an event whose drilled worker stopped is
 * not waiting until its lease has run out).
 */
export const accountState = query(
  "inbox.accountState",
  z.strictObject({ accountId, atMs: timeMs.optional() }),
  z
    .object({
      plan: z.string(),
      planChangedAtMs: z.number(),
      agreementId: z.string().nullable(),
      billingStatus: z.string(),
      period: z.string(),
      balance: z.number(),
      grants: z.array(z.object({ key: z.string(), plan: z.string(), units: z.number(), reason: z.string(), inboxEventId: z.string().nullable(), grantedAtMs: z.number() })),
      waiting: z.number(),
    })
    .nullable(),
  async (tx, args) => {
    const account = await tx.store.accounts.get(args.accountId);
    if (!account) return null;
    const period = periodOf(args.atMs ?? tx.nowMs, account.cycleAnchorMs);
    const grants = await tx.store.allowance.listGrants(account.id, period.name, GRANTS_PER_PERIOD_MAX);
    const events = await tx.store.inbox.listForAccount(account.id, 100);
    const waiting = events.filter(
      (e) =>
        e.status === "received" ||
        (e.status === "failed" && (e.dueAtMs ?? 0) <= tx.nowMs) ||
        (e.status === "processing" && (e.attempts !== e.stopAtAttempt || (e.dueAtMs ?? 0) < tx.nowMs)),
    ).length;
    return {
      plan: account.plan,
      planChangedAtMs: account.planChangedAtMs,
      agreementId: account.agreementId,
      billingStatus: account.billingStatus,
      period: period.name,
      balance: balanceOf(grants),
      grants: grants.map(({ key, plan, units, reason, inboxEventId, grantedAtMs }) => ({ key, plan, units, reason, inboxEventId, grantedAtMs })),
      waiting,
    };
  },
);
