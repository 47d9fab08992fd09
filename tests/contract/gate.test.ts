/**
 * The gate's scenarios (Part A), each run on the SQLite engine and on the real
 * Convex functions. Time is a frozen clock moved by hand; the provider is one
 * the test controls.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { Engine } from "../../lib/engine/types";
import { chargeJob, extendJob, reserveJob, settleJob, sweepExpiredJobs, type GateContext } from "../../lib/gate/orchestrate";
import * as gate from "../../lib/gate/scripts";
import * as usage from "../../lib/usage/scripts";
import { engines, type EngineUnderTest } from "./engines";
import { ControlledProvider, freezeTime, gateContext, newAccount, T0 } from "./gate-fixtures";

const MIN = 60_000;

describe.each(engines)("the gate on %s", (_name, make) => {
  let under: EngineUnderTest;
  let engine: Engine;
  let provider: ControlledProvider;
  let ctx: GateContext;
  let clock: ReturnType<typeof freezeTime>;

  beforeEach(async () => {
    clock = freezeTime();
    under = await make();
    engine = under.engine;
    provider = new ControlledProvider();
    ctx = gateContext(engine, provider);
  });
  afterEach(async () => {
    await under.cleanup();
    vi.useRealTimers();
  });

  const budgetOf = async (accountId: string) => (await engine.run(gate.budget, { accountId, feature: "tokens" })).budget;
  const reserve = (accountId: string, key: string, estimate: number) => reserveJob(ctx, { accountId, key, estimate });
  const admitted = async (accountId: string, key: string, estimate: number) => {
    const result = await reserve(accountId, key, estimate);
    if (result.outcome !== "admitted") throw new Error(`expected ${key} to be admitted, got ${JSON.stringify(result)}`);
    return result.job;
  };
  const ledgerTotal = async (accountId: string, cycle = "2026-10") => (await engine.run(usage.total, { accountId, feature: "tokens", cycle })).units;

  test("five jobs of 40,000 start together against 100,000: exactly two are admitted, three refused with what is left", async () => {
    const accountId = await newAccount(engine, provider, 100_000);
    const results = await Promise.all([1, 2, 3, 4, 5].map((i) => reserve(accountId, `job-${i}`, 40_000)));
    const started = results.filter((r) => r.outcome === "admitted");
    const refused = results.filter((r) => r.outcome === "refused");
    expect(started).toHaveLength(2);
    expect(refused).toHaveLength(3);
    for (const r of refused) expect(r).toMatchObject({ neededUnits: 40_000, remainingUnits: 20_000, reason: "The job needs 40000 and 20000 is left." });
    expect(await budgetOf(accountId)).toMatchObject({ limitUnits: 100_000, usedUnits: 0, heldUnits: 80_000, remainingUnits: 20_000 });
    expect(provider.reads).toBe(1);
  });

  test("a replayed key returns the same job and holds nothing new; the same key with another estimate is a conflict", async () => {
    const accountId = await newAccount(engine, provider, 100_000);
    const first = await reserve(accountId, "k-1", 30_000);
    const again = await Promise.all([reserve(accountId, "k-1", 30_000), reserve(accountId, "k-1", 30_000)]);
    expect(first).toMatchObject({ outcome: "admitted", replayed: false });
    for (const r of again) expect(r).toMatchObject({ outcome: "admitted", replayed: true, job: { id: first.outcome === "admitted" ? first.job.id : "" } });
    expect((await budgetOf(accountId)).heldUnits).toBe(30_000);
    await expect(reserve(accountId, "k-1", 31_000)).rejects.toMatchObject({ code: "conflict" });
    expect((await budgetOf(accountId)).heldUnits).toBe(30_000);
  });

  test("a refused key holds nothing and may be admitted later, when room returns", async () => {
    const accountId = await newAccount(engine, provider, 50_000);
    const big = await admitted(accountId, "big", 40_000);
    expect((await reserve(accountId, "late", 20_000)).outcome).toBe("refused");
    await settleJob(ctx, { jobId: big.id, used: 10_000, outcome: "completed", asAccountId: accountId });
    expect((await reserve(accountId, "late", 20_000)).outcome).toBe("admitted");
  });

  test("a step past the hold charges only what is left, caps the job and settles it at the hold", async () => {
    const accountId = await newAccount(engine, provider, 100_000);
    const job = await admitted(accountId, "cap", 10_000);
    expect(await chargeJob(ctx, { jobId: job.id, tokens: 6_000, asAccountId: accountId })).toMatchObject({ outcome: "charged", chargedUnits: 6_000 });
    const capped = await chargeJob(ctx, { jobId: job.id, tokens: 9_000, asAccountId: accountId });
    expect(capped).toMatchObject({ outcome: "capped", chargedUnits: 4_000, job: { status: "capped", chargedUnits: 10_000, releasedUnits: 0 } });
    expect(await chargeJob(ctx, { jobId: job.id, tokens: 1, asAccountId: accountId })).toMatchObject({ outcome: "ignored" });
    expect(await settleJob(ctx, { jobId: job.id, used: 15_000, outcome: "completed", asAccountId: accountId })).toMatchObject({ outcome: "already_settled" });
    expect(await budgetOf(accountId)).toMatchObject({ usedUnits: 10_000, heldUnits: 0 });
    expect(await ledgerTotal(accountId)).toBe(10_000);
  });

  test("extend grows the hold when the budget has room and is refused when it has not; a refused job keeps its cap", async () => {
    const accountId = await newAccount(engine, provider, 10_000);
    const job = await admitted(accountId, "grow", 4_000);
    expect(await extendJob(ctx, { jobId: job.id, tokens: 3_000, asAccountId: accountId })).toMatchObject({
      outcome: "extended",
      grantedUnits: 3_000,
      remainingUnits: 3_000,
      job: { heldUnits: 7_000 },
    });
    const refused = await extendJob(ctx, { jobId: job.id, tokens: 5_000, asAccountId: accountId });
    expect(refused).toMatchObject({ outcome: "refused", remainingUnits: 3_000, reason: "The job needs 5000 and 3000 is left.", job: { heldUnits: 7_000 } });
    expect((await budgetOf(accountId)).heldUnits).toBe(7_000);
    expect(await chargeJob(ctx, { jobId: job.id, tokens: 7_000, asAccountId: accountId })).toMatchObject({ outcome: "charged" });
    expect(await chargeJob(ctx, { jobId: job.id, tokens: 1, asAccountId: accountId })).toMatchObject({ outcome: "capped", chargedUnits: 0 });
    expect(await budgetOf(accountId)).toMatchObject({ usedUnits: 7_000, heldUnits: 0 });
  });

  test("settling twice charges once: the second settle is a no-op that says so, and the ledger has one row", async () => {
    const accountId = await newAccount(engine, provider, 100_000);
    const job = await admitted(accountId, "s2", 40_000);
    const first = await settleJob(ctx, { jobId: job.id, used: 31_200, outcome: "completed", asAccountId: accountId });
    expect(first).toMatchObject({ outcome: "settled", chargedUnits: 31_200, releasedUnits: 8_800 });
    const second = await settleJob(ctx, { jobId: job.id, used: 40_000, outcome: "failed", asAccountId: accountId });
    expect(second).toMatchObject({ outcome: "already_settled", job: { status: "completed", chargedUnits: 31_200 } });
    expect(await budgetOf(accountId)).toMatchObject({ usedUnits: 31_200, heldUnits: 0, remainingUnits: 68_800 });
    expect(await ledgerTotal(accountId)).toBe(31_200);
  });

  test("a failed job is charged for the part it did; a settle never charges less than its steps did", async () => {
    const accountId = await newAccount(engine, provider, 100_000);
    const job = await admitted(accountId, "half", 40_000);
    await chargeJob(ctx, { jobId: job.id, tokens: 24_000, asAccountId: accountId });
    const settled = await settleJob(ctx, { jobId: job.id, used: 1_000, outcome: "failed", asAccountId: accountId });
    expect(settled).toMatchObject({ outcome: "settled", chargedUnits: 24_000, releasedUnits: 16_000, job: { status: "failed" } });
  });

  test("a worker that vanishes loses its hold to the sweeper; coming back late it finds the job settled and is ignored", async () => {
    const accountId = await newAccount(engine, provider, 100_000);
    const job = await admitted(accountId, "gone", 40_000);
    await chargeJob(ctx, { jobId: job.id, tokens: 12_000, asAccountId: accountId });
    clock.advance(2 * MIN - 1);
    expect((await sweepExpiredJobs(ctx)).expired).toBe(0);
    clock.advance(1);
    expect((await sweepExpiredJobs(ctx)).expired).toBe(1);
    expect(await budgetOf(accountId)).toMatchObject({ usedUnits: 12_000, heldUnits: 0 });
    expect(await chargeJob(ctx, { jobId: job.id, tokens: 5_000, asAccountId: accountId })).toMatchObject({ outcome: "ignored", job: { status: "expired" } });
    expect(await settleJob(ctx, { jobId: job.id, used: 30_000, outcome: "completed", asAccountId: accountId })).toMatchObject({
      outcome: "already_settled",
      job: { status: "expired", chargedUnits: 12_000, releasedUnits: 28_000 },
    });
    expect(await ledgerTotal(accountId)).toBe(12_000);
    const { events } = await engine.run(gate.getJob, { jobId: job.id, asAccountId: accountId });
    expect(events.map((e) => e.kind)).toEqual(["reserved", "charged", "expired"]);
  });

  test("every charge renews the two-minute lease; only silence expires a job", async () => {
    const accountId = await newAccount(engine, provider, 100_000);
    const job = await admitted(accountId, "alive", 10_000);
    for (let i = 0; i < 5; i++) {
      clock.advance(100_000);
      const charged = await chargeJob(ctx, { jobId: job.id, tokens: 100, asAccountId: accountId });
      expect(charged.job.leaseExpiresAtMs).toBe(Date.now() + 2 * MIN);
      expect((await sweepExpiredJobs(ctx)).expired).toBe(0);
    }
    clock.advance(2 * MIN);
    expect((await sweepExpiredJobs(ctx)).expired).toBe(1);
    expect(await budgetOf(accountId)).toMatchObject({ usedUnits: 500, heldUnits: 0 });
  });

  test("a plan change never resizes a running hold; the next admission uses the new limit", async () => {
    const accountId = await newAccount(engine, provider, 100_000);
    const running = await admitted(accountId, "before", 60_000);
    provider.setLimit(accountId, 50_000);
    expect(await engine.run(gate.dropLimit, { accountId })).toEqual({ dropped: 1 });
    const refused = await reserve(accountId, "after", 1);
    expect(refused).toMatchObject({ outcome: "refused", remainingUnits: 0 });
    expect(await budgetOf(accountId)).toMatchObject({ limitUnits: 50_000, heldUnits: 60_000 });
    expect(await settleJob(ctx, { jobId: running.id, used: 60_000, outcome: "completed", asAccountId: accountId })).toMatchObject({ chargedUnits: 60_000 });
    provider.setLimit(accountId, 200_000);
    await engine.run(gate.dropLimit, { accountId, feature: "tokens" });
    expect(await reserve(accountId, "upgraded", 140_000)).toMatchObject({ outcome: "admitted", remainingUnits: 0 });
    expect(provider.reads).toBe(3);
  });

  test("fail closed: a stale limit serves for 10 minutes of provider silence, then admission is refused until a read succeeds", async () => {
    const accountId = await newAccount(engine, provider, 1_000_000);
    await admitted(accountId, "t0", 1);
    expect(provider.reads).toBe(1);
    provider.down = true;

    clock.advance(61_000); // not fresh: one attempt, it fails, the stale limit serves
    expect((await reserve(accountId, "t61", 1)).outcome).toBe("admitted");
    expect(provider.reads).toBe(2);
    clock.advance(30_000); // within a minute of the last attempt: nobody asks
    expect((await reserve(accountId, "t91", 1)).outcome).toBe("admitted");
    expect(provider.reads).toBe(2);

    const sinceRead = () => Date.now() - T0;
    while (sinceRead() + 30_000 < 10 * MIN) {
      clock.advance(30_000);
      expect((await reserve(accountId, `t${sinceRead()}`, 1)).outcome).toBe("admitted");
    }
    expect(provider.reads).toBeLessThanOrEqual(11); // at most one read a minute

    clock.advance(10 * MIN - sinceRead() + 1_000);
    const refused = await reserve(accountId, "t601", 1);
    expect(refused).toMatchObject({ outcome: "limit_unavailable" });
    expect(refused.outcome === "limit_unavailable" && refused.retryAfterMs).toBeGreaterThan(0);
    const cached = (await engine.run(gate.budget, { accountId, feature: "tokens" })).cachedLimit;
    expect(cached).toMatchObject({ kind: "limited", maxUnits: 1_000_000, source: "standin", lastError: expect.stringMatching(/did not answer/) });

    provider.down = false;
    clock.advance(refused.outcome === "limit_unavailable" ? refused.retryAfterMs : 0);
    expect((await reserve(accountId, "back", 1)).outcome).toBe("admitted");
    expect((await engine.run(gate.budget, { accountId, feature: "tokens" })).cachedLimit).toMatchObject({ lastError: null, readAtMs: Date.now() });
  });

  test("no limit ever read and the provider down: refused at once, with a time to retry", async () => {
    const accountId = await newAccount(engine, provider, 100_000);
    provider.down = true;
    const result = await reserve(accountId, "never", 1);
    expect(result).toMatchObject({ outcome: "limit_unavailable", retryAfterMs: 60_000 });
    expect(provider.reads).toBe(1);
    expect((await reserve(accountId, "never", 1)).outcome).toBe("limit_unavailable");
    expect(provider.reads).toBe(1);
  });

  test("fifty first admissions at once wait for one provider read; none is refused", async () => {
    const accountId = await newAccount(engine, provider, null);
    provider.delayMs = 30;
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => reserve(accountId, `first-${i}`, 1)));
    expect(results.map((r) => r.outcome)).toEqual(Array(50).fill("admitted"));
    expect(provider.reads).toBe(1);
  });

  test("a read in flight on another server: admission waits for its answer instead of refusing", async () => {
    const accountId = await newAccount(engine, provider, 100_000);
    const claim = await engine.run(gate.claimLimitRead, { accountId, feature: "tokens", source: "standin" });
    expect(claim.claimed).toBe(true);
    let waits = 0;
    const waiting: GateContext = {
      ...ctx,
      sleep: async (ms) => {
        waits++;
        clock.advance(ms);
        if (waits === 3) await engine.run(gate.storeLimit, { accountId, feature: "tokens", claimedAtMs: claim.claimedAtMs, source: "standin", limit: { kind: "limited", max: 5 } });
      },
    };
    expect(await reserveJob(waiting, { accountId, key: "waits", estimate: 5 })).toMatchObject({ outcome: "admitted", remainingUnits: 0 });
    expect(waits).toBe(3);
    expect(provider.reads).toBe(0);
  });

  test("a claimed read that never answers is given up after 15 s: refused with a time to retry", async () => {
    const accountId = await newAccount(engine, provider, 100_000);
    await engine.run(gate.claimLimitRead, { accountId, feature: "tokens", source: "standin" });
    const waiting: GateContext = { ...ctx, sleep: async (ms) => clock.advance(ms) };
    const result = await reserveJob(waiting, { accountId, key: "stuck", estimate: 5 });
    expect(result.outcome).toBe("limit_unavailable");
    expect(provider.reads).toBe(0);
  });

  test("a null maximum means no limit", async () => {
    const accountId = await newAccount(engine, provider, null);
    expect(await reserve(accountId, "u", 10 ** 12)).toMatchObject({ outcome: "admitted", remainingUnits: null });
  });

  test("120 new jobs a minute per account: the 121st is refused with a time to retry, counted on the billing row", async () => {
    const accountId = await newAccount(engine, provider, null);
    const other = await newAccount(engine, provider, null, "Other");
    const results = await Promise.all(Array.from({ length: 121 }, (_, i) => reserve(accountId, `r${i}`, 1)));
    expect(results.filter((r) => r.outcome === "admitted")).toHaveLength(120);
    const limited = results.find((r) => r.outcome === "rate_limited");
    expect(limited).toMatchObject({ outcome: "rate_limited", retryAfterMs: 60_000 });
    expect((await reserve(other, "o1", 1)).outcome).toBe("admitted"); // per account
    expect((await reserve(accountId, "r0", 1)).outcome).toBe("admitted"); // a replay is not a new job
    clock.advance(60_000);
    expect((await reserve(accountId, "r121", 1)).outcome).toBe("admitted");
    await engine.run(gate.configureAccount, { accountId, admissionsPerMinute: 2 });
    expect((await reserve(accountId, "r122", 1)).outcome).toBe("admitted");
    expect((await reserve(accountId, "r123", 1)).outcome).toBe("rate_limited");
  });

  test("one account's key cannot touch another account's job: the answer is the same 404 as for no job", async () => {
    const a = await newAccount(engine, provider, 100_000, "A");
    const b = await newAccount(engine, provider, 100_000, "B");
    const job = await admitted(a, "mine", 1_000);
    for (const call of [
      () => chargeJob(ctx, { jobId: job.id, tokens: 1, asAccountId: b }),
      () => settleJob(ctx, { jobId: job.id, outcome: "completed", asAccountId: b }),
      () => extendJob(ctx, { jobId: job.id, tokens: 1, asAccountId: b }),
      () => engine.run(gate.getJob, { jobId: job.id, asAccountId: b }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: "not_found", message: `No job ${job.id}.` });
    }
    expect((await engine.run(gate.getJob, { jobId: job.id, asAccountId: a })).job.status).toBe("running");
  });

  test("numbered steps are safe to retry: a step already applied changes nothing, a skipped one is a conflict", async () => {
    const accountId = await newAccount(engine, provider, 100_000);
    const job = await admitted(accountId, "steps", 10_000);
    expect(await chargeJob(ctx, { jobId: job.id, tokens: 1_000, step: 1, asAccountId: accountId })).toMatchObject({ outcome: "charged" });
    expect(await chargeJob(ctx, { jobId: job.id, tokens: 1_000, step: 1, asAccountId: accountId })).toMatchObject({ outcome: "replayed", job: { usedUnits: 1_000 } });
    await expect(chargeJob(ctx, { jobId: job.id, tokens: 1_000, step: 3, asAccountId: accountId })).rejects.toMatchObject({ code: "conflict" });
    expect(await extendJob(ctx, { jobId: job.id, tokens: 1_000, step: 2, asAccountId: accountId })).toMatchObject({ outcome: "extended" });
    expect(await extendJob(ctx, { jobId: job.id, tokens: 1_000, step: 2, asAccountId: accountId })).toMatchObject({ outcome: "replayed", job: { heldUnits: 11_000 } });
  });

  test("the sweeper takes a bounded batch and reports when more are waiting", async () => {
    const accountId = await newAccount(engine, provider, null);
    await engine.run(gate.configureAccount, { accountId, admissionsPerMinute: 1_000 });
    for (let i = 0; i < 105; i += 35) await Promise.all(Array.from({ length: 35 }, (_, j) => reserve(accountId, `sw${i + j}`, 10)));
    clock.advance(2 * MIN);
    const first = await engine.run(gate.sweep, { limit: 100 });
    expect(first.expired).toHaveLength(100);
    expect(first.more).toBe(true);
    const second = await engine.run(gate.sweep, { limit: 100 });
    expect(second).toMatchObject({ more: false });
    expect(second.expired).toHaveLength(5);
    expect((await budgetOf(accountId)).heldUnits).toBe(0);
  });

  test("a long job's timeline shows its latest events, its end included, and says how many earlier ones are left out", async () => {
    const accountId = await newAccount(engine, provider, 100_000);
    const job = await admitted(accountId, "long", 10_000);
    for (let i = 0; i < 15; i++) await chargeJob(ctx, { jobId: job.id, tokens: 10, asAccountId: accountId });
    await settleJob(ctx, { jobId: job.id, outcome: "completed", asAccountId: accountId });
    const view = await engine.run(gate.accountView, { accountId, eventsPerJob: 5 });
    const row = view.settled[0]!;
    expect(row.events.map((e) => e.kind)).toEqual(["charged", "charged", "charged", "charged", "settled"]);
    expect(row.omittedEvents).toBe(12); // reserved + 11 charges
    expect((await engine.run(gate.getJob, { jobId: job.id, asAccountId: accountId })).omittedEvents).toBe(0);
  });

  test("the account view lists running and settled jobs with their timelines", async () => {
    const accountId = await newAccount(engine, provider, 100_000);
    const a = await admitted(accountId, "va", 1_000);
    const b = await admitted(accountId, "vb", 2_000);
    await chargeJob(ctx, { jobId: b.id, tokens: 500, asAccountId: null });
    await settleJob(ctx, { jobId: b.id, outcome: "completed", asAccountId: null });
    const view = await engine.run(gate.accountView, { accountId });
    expect(view.running.map((r) => r.job.id)).toEqual([a.id]);
    expect(view.settled.map((r) => r.job.id)).toEqual([b.id]);
    expect(view.settled[0]!.events.map((e) => e.kind)).toEqual(["reserved", "charged", "settled"]);
    expect(view.budgets[0]).toMatchObject({ cycle: "2026-10", usedUnits: 500, heldUnits: 1_000, remainingUnits: 98_500 });
    expect(view.cachedLimits[0]).toMatchObject({ feature: "tokens", kind: "limited", maxUnits: 100_000, source: "standin" });
  });
});
