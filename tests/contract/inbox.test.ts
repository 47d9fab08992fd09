/**
 * The inbox event's state machine on both engines, one transition per test:
 * received → processing (claim, 30 s lease) → applied | ignored | failed →
 * … → dead; copies; leases that run out; replay.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import * as accounts from "../../lib/accounts/scripts";
import * as gate from "../../lib/gate/scripts";
import * as meter from "../../lib/meter/scripts";
import type { Engine } from "../../lib/engine/types";
import * as inbox from "../../lib/inbox/scripts";
import { runInboxWorker } from "../../lib/inbox/worker";
import { engines, useEngine } from "./engines";
import { kindeClaims } from "./inbox-kit";

process.env.TOLLBOOTH_INBOX_KICK = "off";
const T0 = Date.UTC(2026, 9, 21, 12, 0, 0);
const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);

let n = 0;
function receiveArgs(over: { type?: string; customerId?: string; atMs?: number; plan?: string; dedupeKey?: string; eventId?: string } = {}) {
  const eventId = over.eventId ?? `event_${++n}`;
  const claims = kindeClaims({ type: over.type ?? "customer.payment_succeeded", customerId: over.customerId ?? "customer_nobody", atMs: over.atMs ?? T0 - 60_000, plan: over.plan, eventId });
  return {
    source: "kinde",
    dedupeKey: over.dedupeKey ?? `msg_${eventId}`,
    webhookId: over.dedupeKey ?? `msg_${eventId}`,
    eventId,
    type: claims.type as string,
    payload: JSON.stringify(claims),
    occurredAtMs: over.atMs ?? T0 - 60_000,
    customerId: over.customerId ?? "customer_nobody",
    sizeBytes: 500,
    stopAtAttempt: null,
  };
}

async function claimOne(engine: Engine) {
  const { claimed } = await engine.run(inbox.claim, { limit: 1 });
  expect(claimed).toHaveLength(1);
  return claimed[0]!;
}

describe.each(engines)("inbox (%s)", (_name, make) => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"], now: T0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const engine = useEngine(make);
  const customer = async (name = "A") => {
    const kindeCustomerId = `customer_${name}_${++n}`;
    const account = await engine().run(accounts.create, { name, kindeCustomerId });
    return { accountId: account.id, customerId: kindeCustomerId };
  };

  test("received: the first copy is stored with one receipt; a copy only counts (seen_count) — by webhook-id or by event_id", async () => {
    const args = receiveArgs();
    const first = await engine().run(inbox.receive, args);
    const copy = await engine().run(inbox.receive, args);
    const otherWebhook = await engine().run(inbox.receive, { ...args, dedupeKey: "msg_other_endpoint", webhookId: "msg_other_endpoint" });
    expect(first).toMatchObject({ stored: true, seenCount: 1, status: "received" });
    expect(copy).toMatchObject({ stored: false, seenCount: 2, inboxEventId: first.inboxEventId });
    expect(otherWebhook).toMatchObject({ stored: false, seenCount: 3, inboxEventId: first.inboxEventId });
    const stored = (await engine().run(inbox.get, { inboxEventId: first.inboxEventId }))!;
    expect(stored).toMatchObject({ status: "received", attempts: 0, seenCount: 3, dedupeKey: args.dedupeKey, result: null });
    expect(stored.receipts.map((r) => r.stored)).toEqual([true, false, false]);
    expect((await engine().run(inbox.list, {})).events).toHaveLength(1);
  });

  test("received → processing: a claim takes at most 25, oldest event time first, and no second claim takes them", async () => {
    const times = Array.from({ length: 30 }, (_, i) => T0 - 1_000_000 + ((i * 7919) % 30) * 1000);
    for (const atMs of times) await engine().run(inbox.receive, receiveArgs({ atMs }));
    const first = await engine().run(inbox.claim, {});
    const second = await engine().run(inbox.claim, {});
    const third = await engine().run(inbox.claim, {});
    expect(first.claimed).toHaveLength(25);
    expect(second.claimed).toHaveLength(5);
    expect(third.claimed).toHaveLength(0);
    const ids = [...first.claimed, ...second.claimed].map((c) => c.id);
    expect(new Set(ids).size).toBe(30);
    const occurred = await Promise.all(first.claimed.map(async (c) => (await engine().run(inbox.get, { inboxEventId: c.id }))!.occurredAtMs));
    expect(occurred).toEqual([...occurred].sort((a, b) => a - b));
    expect(Math.max(...occurred)).toBeLessThan(Math.min(...(await Promise.all(second.claimed.map(async (c) => (await engine().run(inbox.get, { inboxEventId: c.id }))!.occurredAtMs)))));
  });

  test("processing → processing: a dead worker's lease runs out after 30 s and the event is claimed again; the old lease can no longer apply", async () => {
    await engine().run(inbox.receive, receiveArgs());
    const first = await claimOne(engine());
    advance(30_000);
    expect((await engine().run(inbox.claim, {})).claimed).toHaveLength(0); // the lease is in force until 30 s have passed
    advance(1);
    const second = await claimOne(engine());
    expect(second).toMatchObject({ id: first.id, attempt: 2 });
    expect(await engine().run(inbox.apply, { inboxEventId: first.id, leaseToken: first.leaseToken })).toEqual({ outcome: "lease_lost", result: null });
    expect(await engine().run(inbox.apply, { inboxEventId: second.id, leaseToken: second.leaseToken })).toMatchObject({ outcome: "ignored" });
  });

  test("processing → applied: handler and mark in one transaction; a stop in the middle leaves nothing half-applied", async () => {
    const { accountId, customerId } = await customer();
    await engine().run(inbox.receive, receiveArgs({ type: "customer.plan_changed", customerId, plan: "pro" }));
    const claimed = await claimOne(engine());
    await expect(engine().run(inbox.apply, { inboxEventId: claimed.id, leaseToken: claimed.leaseToken, interruptAfterFirstWrite: true })).rejects.toThrow();
    let state = (await engine().run(inbox.accountState, { accountId }))!;
    expect([state.plan, state.balance, state.grants.length]).toEqual(["free", 10, 0]);
    expect((await engine().run(inbox.get, { inboxEventId: claimed.id }))!.status).toBe("processing");

    const applied = await engine().run(inbox.apply, { inboxEventId: claimed.id, leaseToken: claimed.leaseToken });
    expect(applied).toEqual({ outcome: "applied", result: "plan set to pro, Pro allowance granted" });
    state = (await engine().run(inbox.accountState, { accountId }))!;
    expect([state.plan, state.planChangedAtMs, state.balance]).toEqual(["pro", T0 - 60_000, 500]);
    const event = (await engine().run(inbox.get, { inboxEventId: claimed.id }))!;
    expect(event).toMatchObject({ status: "applied", accountId, dueAtMs: null, finishedAtMs: T0 });
    expect(await engine().run(inbox.apply, { inboxEventId: claimed.id, leaseToken: claimed.leaseToken })).toMatchObject({ outcome: "lease_lost" });
  });

  test("processing → ignored: an unknown customer is ignored with the reason; once the account exists a replay applies it", async () => {
    const args = receiveArgs({ type: "customer.plan_changed", customerId: "customer_later", plan: "pro" });
    const { inboxEventId } = await engine().run(inbox.receive, args);
    const c = await claimOne(engine());
    expect(await engine().run(inbox.apply, { inboxEventId, leaseToken: c.leaseToken })).toEqual({ outcome: "ignored", result: "ignored: no account has Kinde customer customer_later" });
    const account = await engine().run(accounts.create, { name: "Later", kindeCustomerId: "customer_later" });
    await engine().run(inbox.replay, { inboxEventId });
    const again = await claimOne(engine());
    expect(await engine().run(inbox.apply, { inboxEventId, leaseToken: again.leaseToken })).toMatchObject({ outcome: "applied" });
    expect((await engine().run(inbox.get, { inboxEventId }))!).toMatchObject({ accountId: account.id, replays: 1 });
    expect((await engine().run(inbox.listForAccount, { accountId: account.id })).events.map((e) => e.id)).toEqual([inboxEventId]);
  });

  test("failed → … → dead: retried after 5 s, 30 s, 2 min, 10 min and 1 h; the sixth failure is dead, kept and counted", async () => {
    const { inboxEventId } = await engine().run(inbox.receive, receiveArgs());
    const waits = [5_000, 30_000, 120_000, 600_000, 3_600_000];
    for (let attempt = 1; attempt <= 6; attempt++) {
      const c = await claimOne(engine());
      expect(c.attempt).toBe(attempt);
      const failed = await engine().run(inbox.fail, { inboxEventId, leaseToken: c.leaseToken, error: `boom ${attempt}` });
      if (attempt < 6) {
        expect(failed).toMatchObject({ status: "failed", nextAttemptAtMs: Date.now() + waits[attempt - 1]! });
        advance(waits[attempt - 1]! - 1);
        expect((await engine().run(inbox.claim, {})).claimed).toHaveLength(0);
        advance(1);
      } else {
        expect(failed).toMatchObject({ status: "dead", died: { id: inboxEventId, attempts: 6, lastError: "boom 6" } });
      }
    }
    expect((await engine().run(inbox.get, { inboxEventId }))!).toMatchObject({ status: "dead", attempts: 6, result: "dead after 6 attempts: boom 6", dueAtMs: null });
    expect(await engine().run(inbox.deadCount, {})).toEqual({ dead: 1, cap: 1000 });
    advance(24 * 3_600_000);
    expect((await engine().run(inbox.claim, {})).claimed).toHaveLength(0);
  });

  test("processing → dead: a worker that dies during all six attempts does not get a seventh", async () => {
    const { inboxEventId } = await engine().run(inbox.receive, receiveArgs());
    for (let attempt = 1; attempt <= 6; attempt++) {
      expect((await claimOne(engine())).attempt).toBe(attempt);
      advance(30_001);
    }
    const { claimed, died } = await engine().run(inbox.claim, {});
    expect(claimed).toHaveLength(0);
    expect(died).toEqual([expect.objectContaining({ id: inboxEventId, attempts: 6 })]);
    expect((await engine().run(inbox.get, { inboxEventId }))!.status).toBe("dead");
  });

  test("replay: a replayed payment finds its row and writes nothing; a replayed old plan change is ignored", async () => {
    const { accountId, customerId } = await customer();
    const ctx = { run: engine().run.bind(engine()), nowMs: Date.now, log: () => {} };
    const pay = await engine().run(inbox.receive, receiveArgs({ customerId, type: "customer.payment_succeeded", plan: "pro", atMs: T0 - 50_000 }));
    const old = await engine().run(inbox.receive, receiveArgs({ customerId, type: "customer.plan_changed", plan: "free", atMs: T0 - 90_000 }));
    const newer = await engine().run(inbox.receive, receiveArgs({ customerId, type: "customer.plan_changed", plan: "pro", atMs: T0 - 40_000 }));
    await runInboxWorker(ctx);
    expect((await engine().run(inbox.accountState, { accountId }))!).toMatchObject({ plan: "pro", balance: 500 });

    await engine().run(inbox.replay, { inboxEventId: pay.inboxEventId });
    await engine().run(inbox.replay, { inboxEventId: old.inboxEventId });
    const pass = await runInboxWorker(ctx);
    expect(pass).toMatchObject({ claimed: 2, ignored: 2, applied: 0 });
    const results = (await engine().run(inbox.statuses, { inboxEventIds: [pay.inboxEventId, old.inboxEventId, newer.inboxEventId] })).events.map((e) => e.result);
    expect(results).toEqual(["ignored: the Pro allowance for 2026-10 is already granted", "ignored: a newer plan change is already stored", "plan set to pro, Pro allowance already granted"]);
    expect((await engine().run(inbox.accountState, { accountId }))!).toMatchObject({ plan: "pro", balance: 500 });
    expect((await engine().run(inbox.get, { inboxEventId: pay.inboxEventId }))!.replays).toBe(1);
  });

  test("replay many: every dead event, or every event that arrived in a time window", async () => {
    const dead = await engine().run(inbox.receive, receiveArgs());
    for (let attempt = 1; attempt <= 6; attempt++) {
      const c = await claimOne(engine());
      await engine().run(inbox.fail, { inboxEventId: dead.inboxEventId, leaseToken: c.leaseToken, error: "boom" });
      advance(3_600_000);
    }
    const windowStart = Date.now();
    const a = await engine().run(inbox.receive, receiveArgs());
    advance(60_000);
    await engine().run(inbox.receive, receiveArgs());
    expect(await engine().run(inbox.replayMany, { filter: { kind: "dead" } })).toEqual({ inboxEventIds: [dead.inboxEventId], more: false });
    expect((await engine().run(inbox.get, { inboxEventId: dead.inboxEventId }))!).toMatchObject({ status: "received", attempts: 0, replays: 1 });
    expect(await engine().run(inbox.replayMany, { filter: { kind: "window", fromMs: windowStart, toMs: windowStart + 60_001 }, limit: 1 })).toEqual({
      inboxEventIds: [a.inboxEventId],
      more: true,
    });
    await expect(engine().run(inbox.replayMany, { filter: { kind: "window", fromMs: 5, toMs: 5 } })).rejects.toThrow(/before toMs/);
  });
  test("two workers at once: every event applied exactly once", async () => {
    const { accountId, customerId } = await customer();
    for (let i = 0; i < 60; i++) {
      await engine().run(inbox.receive, receiveArgs({ customerId, type: "customer.payment_succeeded", plan: "pro", atMs: T0 - 100_000 + i }));
    }
    const ctx = { run: engine().run.bind(engine()), nowMs: Date.now, log: () => {} };
    const [one, two] = await Promise.all([runInboxWorker(ctx), runInboxWorker(ctx)]);
    expect(one.claimed + two.claimed).toBe(60);
    expect(one.applied + two.applied).toBe(1); // the first grants the Pro allowance
    expect(one.ignored + two.ignored).toBe(59); // the rest find the row
    expect(one.leaseLost + two.leaseLost).toBe(0);
    expect((await engine().run(inbox.accountState, { accountId }))!).toMatchObject({ balance: 500, waiting: 0 });
  });

  test("a dead event is posted to the alert webhook, with a sentence a person can act on", async () => {
    const { inboxEventId } = await engine().run(inbox.receive, receiveArgs());
    const posts: { url: string; body: Record<string, unknown> }[] = [];
    const fetchSpy = (async (url: string, init: RequestInit) => {
      posts.push({ url, body: JSON.parse(String(init.body)) });
      return new Response("ok");
    }) as unknown as typeof fetch;
    // A handler that always throws, as a bug would.
    const failing = { run: ((script, args) => (script.name === "inbox.apply" ? Promise.reject(new Error("handler bug")) : engine().run(script, args))) as Engine["run"], nowMs: Date.now, log: () => {} };
    for (let attempt = 1; attempt <= 6; attempt++) {
      const pass = await runInboxWorker(failing, { alertUrl: "https://alerts.example/hook", fetch: fetchSpy });
      expect(pass.claimed).toBe(1);
      advance(3_600_000);
    }
    expect(posts).toHaveLength(1);
    expect(posts[0]!.url).toBe("https://alerts.example/hook");
    expect(posts[0]!.body).toMatchObject({ alert: "inbox.event_dead", inboxEventId, attempts: 6, lastError: "handler bug" });
    expect(String(posts[0]!.body.text)).toMatch(/needs a person/);
  });
  test("a plan event drops the gate's cached limit and a meter event queues a reconcile, in the apply transaction", async () => {
    const { accountId, customerId } = await customer();
    const claim = await engine().run(gate.claimLimitRead, { accountId, feature: "tokens", source: "test" });
    await engine().run(gate.storeLimit, { accountId, feature: "tokens", claimedAtMs: claim.claimedAtMs, source: "test", limit: { kind: "limited", max: 100_000 } });
    const cached = async () => (await engine().run(gate.budget, { accountId, feature: "tokens" })).cachedLimit;
    expect(await cached()).toMatchObject({ kind: "limited", maxUnits: 100_000 });

    await engine().run(inbox.receive, receiveArgs({ type: "customer.plan_changed", customerId, plan: "pro" }));
    const c = await claimOne(engine());
    await expect(engine().run(inbox.apply, { inboxEventId: c.id, leaseToken: c.leaseToken, interruptAfterFirstWrite: true })).rejects.toThrow();
    expect(await cached()).not.toBeNull(); // rolled back with the rest
    await engine().run(inbox.apply, { inboxEventId: c.id, leaseToken: c.leaseToken });
    expect(await cached()).toBeNull();

    await engine().run(inbox.receive, receiveArgs({ type: "customer.meter_usage_updated", customerId }));
    const m = await claimOne(engine());
    expect(await engine().run(inbox.apply, { inboxEventId: m.id, leaseToken: m.leaseToken })).toEqual({ outcome: "applied", result: "reconcile of this account's meter queued" });
    const { requests } = await engine().run(meter.takeReconcileRequests, {});
    expect(requests).toEqual([expect.objectContaining({ accountId, reason: expect.stringMatching(/customer\.meter_usage_updated/) })]);
  });
});
