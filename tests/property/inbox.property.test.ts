/**
 * Random delivery schedules against the inbox (fast-check, 1,000 runs): a
 * random set of distinct events; copies of them in any order; workers that
 * claim and come back late with stale leases; workers that die in the middle
 * of an apply; handlers that fail a few times and then recover (or fail for
 * good); replays at any moment; time that jumps past leases and backoffs.
 *
 * After each schedule the queue is drained, and:
 * - every stored event ended applied, ignored or dead;
 * - the account equals a model that applies each distinct non-dead event
 *   once, in event-time order (plan, plan time, agreement, billing status);
 * - the allowance ledger holds exactly the model's grants: none twice.
 *
 * It runs on the embedded engine (synchronous=NORMAL: durability is not under
 * test here, speed is); the same scripts run on Convex in tests/contract.
 */
import fc from "fast-check";
import fs from "node:fs";
import { afterAll, beforeAll, expect, test } from "vitest";
import * as accounts from "../../lib/accounts/scripts";
import { balanceOf, FREE_PLAN, grantKey, periodOf, topUpUnits } from "../../lib/inbox/allowance";
import { planOfKey } from "../../lib/inbox/fields";
import * as inbox from "../../lib/inbox/scripts";
import { SqliteEngine } from "../../lib/engine/sqlite/engine";
import { tempDataDir } from "../contract/engines";

const RUNS = Number(process.env.INBOX_PROPERTY_RUNS ?? 1000);
const T0 = Date.UTC(2026, 9, 21, 12, 0, 0);

let now = T0;
let engine: SqliteEngine;
let dataDir: string;
beforeAll(() => {
  dataDir = tempDataDir();
  engine = new SqliteEngine({ dataDir, synchronous: "NORMAL", clock: () => now });
});
afterAll(async () => {
  await engine.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// ------------------------------------------------------------------ events

type Kind =
  | { type: "customer.plan_changed" | "customer.plan_assigned" | "customer.agreement_created"; plan: "pro" | "free" | "gold"; agreement: boolean }
  | { type: "customer.agreement_cancelled" }
  | { type: "customer.payment_succeeded"; plan: "pro" | "free" }
  | { type: "customer.payment_failed" | "customer.invoice_overdue" | "customer.meter_usage_updated" | "user.created" };

const kindArb: fc.Arbitrary<Kind> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ type: fc.constantFrom("customer.plan_changed" as const, "customer.plan_assigned" as const, "customer.agreement_created" as const), plan: fc.constantFrom("pro" as const, "pro" as const, "free" as const, "gold" as const), agreement: fc.boolean() }) },
  { weight: 2, arbitrary: fc.constant({ type: "customer.agreement_cancelled" as const }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant("customer.payment_succeeded" as const), plan: fc.constantFrom("pro" as const, "free" as const) }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constantFrom("customer.payment_failed" as const, "customer.invoice_overdue" as const, "customer.meter_usage_updated" as const, "user.created" as const) }) },
);

interface EventSpec {
  kind: Kind;
  /** Seconds before T0 (distinct per event, so event times never tie). */
  secondsAgo: number;
  unknownCustomer: boolean;
  /** How many attempts of this event's handler throw before it works (6 or more: dead, unless replayed). */
  failures: number;
}

type Action =
  | { do: "deliver"; event: number }
  | { do: "work"; limit: number; crash: boolean }
  | { do: "claim"; limit: number }
  | { do: "finishHeld"; index: number; crash: boolean }
  | { do: "advance"; ms: number }
  | { do: "replay"; event: number };

const scenarioArb = fc
  .uniqueArray(fc.integer({ min: 0, max: 40 * 86_400 }), { minLength: 1, maxLength: 7 })
  .chain((times) =>
    fc.record({
      events: fc.tuple(
        ...times.map((secondsAgo) =>
          fc.record({
            kind: kindArb,
            secondsAgo: fc.constant(secondsAgo),
            unknownCustomer: fc.boolean().map((b) => b && Math.random() < 0.2),
            failures: fc.constantFrom(0, 0, 0, 0, 1, 2, 5, 6, 7),
          }),
        ),
      ),
      actions: fc.array(
        fc.oneof(
          { weight: 6, arbitrary: fc.record({ do: fc.constant("deliver" as const), event: fc.nat(times.length - 1) }) },
          { weight: 3, arbitrary: fc.record({ do: fc.constant("work" as const), limit: fc.integer({ min: 1, max: 25 }), crash: fc.boolean() }) },
          { weight: 1, arbitrary: fc.record({ do: fc.constant("claim" as const), limit: fc.integer({ min: 1, max: 3 }) }) },
          { weight: 1, arbitrary: fc.record({ do: fc.constant("finishHeld" as const), index: fc.nat(5), crash: fc.boolean() }) },
          { weight: 2, arbitrary: fc.record({ do: fc.constant("advance" as const), ms: fc.constantFrom(1_000, 5_000, 31_000, 121_000, 3_600_001) }) },
          { weight: 1, arbitrary: fc.record({ do: fc.constant("replay" as const), event: fc.nat(times.length - 1) }) },
        ),
        { maxLength: 40 },
      ),
    }),
  );

// ------------------------------------------------------------------ model

interface ModelState {
  plan: string;
  planChangedAtMs: number;
  agreementId: string | null;
  billingStatus: string;
  grants: Set<string>;
}

function model(accountId: string, events: { spec: EventSpec; atMs: number; agreementId: string }[]): ModelState {
  const s: ModelState = { plan: FREE_PLAN, planChangedAtMs: 0, agreementId: null, billingStatus: "ok", grants: new Set() };
  let billingAtMs = -1;
  const grant = (plan: string, atMs: number) => {
    if ((topUpUnits(plan) ?? 0) > 0) s.grants.add(grantKey(plan, accountId, periodOf(atMs, null).name));
  };
  for (const { spec, atMs, agreementId } of [...events].sort((a, b) => a.atMs - b.atMs)) {
    if (spec.unknownCustomer) continue;
    const k = spec.kind;
    switch (k.type) {
      case "customer.plan_changed":
      case "customer.plan_assigned":
      case "customer.agreement_created": {
        const plan = planOfKey(k.plan);
        if (plan === null) break;
        if (atMs > s.planChangedAtMs) {
          s.plan = plan;
          s.planChangedAtMs = atMs;
          if (k.agreement) s.agreementId = agreementId;
        }
        grant(plan, atMs);
        break;
      }
      case "customer.agreement_cancelled":
        if (atMs > s.planChangedAtMs) {
          s.plan = FREE_PLAN;
          s.planChangedAtMs = atMs;
        }
        break;
      case "customer.payment_succeeded":
        if (atMs > billingAtMs) {
          s.billingStatus = "ok";
          billingAtMs = atMs;
        }
        grant(k.plan, atMs);
        break;
      case "customer.payment_failed":
      case "customer.invoice_overdue":
        if (atMs > billingAtMs) {
          s.billingStatus = k.type === "customer.payment_failed" ? "payment_failed" : "invoice_overdue";
          billingAtMs = atMs;
        }
        break;
      default:
        break;
    }
  }
  return s;
}

// ------------------------------------------------------------------ the run

let runNumber = 0;

async function runScenario(scenario: { events: EventSpec[]; actions: Action[] }): Promise<void> {
  runNumber++;
  now = T0 + runNumber * 1000; // each run a little later; event times stay fixed relative to T0
  const customerId = `customer_prop_${runNumber}`;
  const account = await engine.run(accounts.create, { name: `prop ${runNumber}`, kindeCustomerId: customerId });
  const specs = scenario.events.map((spec, i) => {
    const atMs = T0 - spec.secondsAgo * 1000;
    const agreementId = `agreement_${runNumber}_${i}`;
    const k = spec.kind;
    const data: Record<string, unknown> = { customer_id: spec.unknownCustomer ? `customer_unknown_${runNumber}` : customerId };
    if ("plan" in k) data.plan = { key: k.plan };
    if ("agreement" in k && k.agreement) data.agreement_id = agreementId;
    const claims = { type: k.type, event_id: `event_${runNumber}_${i}`, timestamp: new Date(atMs + 1000).toISOString(), event_timestamp: new Date(atMs).toISOString(), data };
    return { spec, atMs, agreementId, claims, failuresLeft: spec.failures, crashes: 0 };
  });
  const inboxIdOf = new Map<number, string>();
  const byInboxId = new Map<string, (typeof specs)[number]>();
  const deliveries = new Map<number, number>();
  const held: { id: string; leaseToken: string }[] = [];

  const apply = async (c: { id: string; leaseToken: string }, crash: boolean) => {
    // An event left by an earlier (failed, shrinking) run is simply applied.
    const spec = byInboxId.get(c.id) ?? { failuresLeft: 0, crashes: 0 };
    if (spec.failuresLeft > 0) {
      // The handler throws after its first write: the transaction rolls back whole, the worker records the failure.
      const r = await engine.run(inbox.apply, { inboxEventId: c.id, leaseToken: c.leaseToken, interruptAfterFirstWrite: true }).catch(() => null);
      if (r !== null) {
        // A stale claim (another worker holds the event now) never reaches the handler.
        expect(r.outcome).toBe("lease_lost");
        return;
      }
      const failed = await engine.run(inbox.fail, { inboxEventId: c.id, leaseToken: c.leaseToken, error: "handler threw" });
      if (failed.status !== "lease_lost") spec.failuresLeft--;
      return;
    }
    if (crash) {
      // The worker dies in the middle: nothing recorded, the lease runs out.
      spec.crashes++;
      const r = await engine.run(inbox.apply, { inboxEventId: c.id, leaseToken: c.leaseToken, interruptAfterFirstWrite: true }).catch(() => null);
      expect(r === null || r.outcome === "lease_lost").toBe(true);
      return;
    }
    await engine.run(inbox.apply, { inboxEventId: c.id, leaseToken: c.leaseToken });
  };

  const deliver = async (i: number) => {
    const s = specs[i]!;
    const result = await engine.run(inbox.receive, {
      source: "kinde",
      dedupeKey: `msg_${runNumber}_${i}`,
      webhookId: `msg_${runNumber}_${i}`,
      eventId: s.claims.event_id,
      type: s.claims.type,
      payload: JSON.stringify(s.claims),
      occurredAtMs: s.atMs,
      customerId: s.claims.data.customer_id as string,
      sizeBytes: 100,
      stopAtAttempt: null,
    });
    deliveries.set(i, (deliveries.get(i) ?? 0) + 1);
    expect(result.stored).toBe(!inboxIdOf.has(i));
    inboxIdOf.set(i, result.inboxEventId);
    byInboxId.set(result.inboxEventId, s);
  };

  for (const action of scenario.actions) {
    switch (action.do) {
      case "deliver":
        await deliver(action.event);
        break;
      case "work": {
        const { claimed } = await engine.run(inbox.claim, { limit: action.limit });
        for (const [j, c] of claimed.entries()) await apply(c, action.crash && j === 0);
        break;
      }
      case "claim":
        held.push(...(await engine.run(inbox.claim, { limit: action.limit })).claimed);
        break;
      case "finishHeld": {
        const c = held.splice(action.index % Math.max(1, held.length), 1)[0];
        if (c) await apply(c, action.crash);
        break;
      }
      case "advance":
        now += action.ms;
        break;
      case "replay": {
        const id = inboxIdOf.get(action.event);
        if (id) await engine.run(inbox.replay, { inboxEventId: id });
        break;
      }
    }
  }

  // Drain: time passes, workers run until nothing is left to do.
  for (let round = 0; round < 60; round++) {
    now += 3_600_001;
    const { claimed } = await engine.run(inbox.claim, {});
    for (const c of claimed) await apply(c, false);
    if (claimed.length === 0) break;
  }

  // Every stored event ended applied, ignored or dead; copies were counted.
  const stored = [...inboxIdOf.entries()];
  const finals: { spec: EventSpec; atMs: number; agreementId: string }[] = [];
  for (const [i, id] of stored) {
    const e = (await engine.run(inbox.get, { inboxEventId: id }))!;
    expect(["applied", "ignored", "dead"]).toContain(e.status);
    expect(e.seenCount).toBe(deliveries.get(i));
    if (e.status !== "dead") finals.push(specs[i]!);
    else expect(specs[i]!.spec.failures + specs[i]!.crashes).toBeGreaterThanOrEqual(1); // only a failing handler, or a dying worker, makes it dead
  }

  // The account equals the model.
  const expected = model(account.id, finals);
  const actual = (await engine.run(accounts.get, { id: account.id }))!;
  expect({ plan: actual.plan, planChangedAtMs: actual.planChangedAtMs, agreementId: actual.agreementId, billingStatus: actual.billingStatus }).toEqual({
    plan: expected.plan,
    planChangedAtMs: expected.planChangedAtMs,
    agreementId: expected.agreementId,
    billingStatus: expected.billingStatus,
  });

  // The allowance ledger holds exactly the model's grants, each once.
  const periods = new Set(specs.map((s) => periodOf(s.atMs, null).name));
  const grants: string[] = [];
  for (const period of periods) {
    const state = (await engine.run(inbox.accountState, { accountId: account.id, atMs: periodOf(specs.find((s) => periodOf(s.atMs, null).name === period)!.atMs, null).startMs }))!;
    grants.push(...state.grants.map((g) => g.key));
    expect(state.balance).toBe(balanceOf(state.grants));
  }
  expect(grants.length).toBe(new Set(grants).size);
  expect(new Set(grants)).toEqual(expected.grants);
}

test(`${RUNS} random delivery schedules: every event ends applied, ignored or dead; the account equals applying each distinct event once in event-time order; no allowance twice`, async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async (scenario) => {
      await runScenario(scenario as { events: EventSpec[]; actions: Action[] });
    }),
    { numRuns: RUNS },
  );
}, 170_000);
