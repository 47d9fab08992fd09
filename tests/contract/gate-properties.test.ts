/**
 * Random schedules against the gate (fast-check): rounds of concurrent
 * reserves, charges above and below the estimate, extensions, settlements,
 * workers that simply stop, sweeps after the clock moves, provider outages and
 * plan changes. After every round the stored state is checked against a model
 * built only from what the gate answered:
 *
 *  - for every budget, held = the sum of the holds of running jobs;
 *  - used = the sum of what settled jobs were charged = the usage ledger's total;
 *  - every admission and extension left used + held within the limit in force when the hold was taken;
 *  - every job settles exactly once (one ledger row, and a settled job never changes again);
 *  - no key ever holds twice (one job per key, and every answer for a key names that job);
 *  - per job: charged ≤ held, released = held − charged, used ≤ held, all whole and ≥ 0.
 *
 * At least 1,000 schedules on the embedded engine (synchronous=NORMAL: durability is not under test here, and
 * the crash test covers it) and a smaller number on the Convex functions.
 */
import fc from "fast-check";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import * as accounts from "../../lib/accounts/scripts";
import { SqliteEngine } from "../../lib/engine/sqlite/engine";
import type { Engine } from "../../lib/engine/types";
import { chargeJob, extendJob, reserveJob, settleJob, sweepExpiredJobs, type GateContext } from "../../lib/gate/orchestrate";
import type { Job } from "../../lib/gate/repo";
import * as gate from "../../lib/gate/scripts";
import * as usage from "../../lib/usage/scripts";
import { makeConvex, tempDataDir } from "./engines";
import { ControlledProvider, T0 } from "./gate-fixtures";

const SQLITE_RUNS = Number(process.env.GATE_PROPERTY_RUNS ?? 1000);
const CONVEX_RUNS = Number(process.env.GATE_PROPERTY_RUNS_CONVEX ?? 60);
const KEYS = 6;

type Op =
  | { kind: "reserve"; key: number; estimate: number }
  | { kind: "charge"; key: number; tokens: number }
  | { kind: "extend"; key: number; tokens: number }
  | { kind: "settle"; key: number; used: number | undefined; outcome: "completed" | "failed" | "cancelled" }
  | { kind: "sweep" };

interface Round {
  /** Moves the clock before the round (the lease is 2 minutes, the limit is fresh for 1). */
  advanceMs: number;
  /** A plan change before the round: the provider's new limit, and the gate's cached limit dropped. */
  newLimit: number | null | undefined;
  providerDown: boolean;
  ops: Op[];
}

const keyArb = fc.integer({ min: 0, max: KEYS - 1 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("reserve" as const), key: keyArb, estimate: fc.integer({ min: 1, max: 80 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("charge" as const), key: keyArb, tokens: fc.integer({ min: 0, max: 60 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("extend" as const), key: keyArb, tokens: fc.integer({ min: 1, max: 50 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("settle" as const),
      key: keyArb,
      used: fc.option(fc.integer({ min: 0, max: 150 }), { nil: undefined }),
      outcome: fc.constantFrom("completed" as const, "failed" as const, "cancelled" as const),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "sweep" as const }) },
);
const roundArb: fc.Arbitrary<Round> = fc.record({
  advanceMs: fc.constantFrom(0, 0, 0, 5_000, 61_000, 121_000),
  newLimit: fc.option(fc.option(fc.integer({ min: 0, max: 250 }), { nil: null, freq: 8 }), { nil: undefined, freq: 6 }),
  providerDown: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
  ops: fc.array(opArb, { minLength: 1, maxLength: 6 }),
});
interface Schedule {
  limit: number | null;
  rounds: Round[];
}
const scheduleArb: fc.Arbitrary<Schedule> = fc.record({
  limit: fc.option(fc.integer({ min: 0, max: 250 }), { nil: null, freq: 10 }),
  rounds: fc.array(roundArb, { minLength: 1, maxLength: 10 }),
});

/** What the gate's answers say happened, kept apart from what the store says. */
interface Model {
  jobByKey: Map<number, string>;
  estimateByKey: Map<number, number>;
  /** Settled jobs as first seen settled: nothing about them may change afterwards. */
  settled: Map<string, Pick<Job, "status" | "chargedUnits" | "releasedUnits" | "heldUnits" | "settledAtMs">>;
  /** Limits the provider has had (null: no maximum). */
  limitsSeen: Set<number | null>;
}

async function checkRound(engine: Engine, accountId: string, model: Model): Promise<void> {
  const view = await engine.run(gate.accountView, { accountId, jobs: 50 });
  const jobs = new Map<string, Job>();
  for (const { job } of [...view.running, ...view.settled]) jobs.set(job.id, job);
  expect(view.running.length).toBeLessThan(50);
  // No key holds twice: one job per key, the one every answer named.
  const keys = new Set<string>();
  for (const job of jobs.values()) {
    expect(keys.has(job.key), `key ${job.key} has two jobs`).toBe(false);
    keys.add(job.key);
  }
  for (const [key, id] of model.jobByKey) expect(jobs.get(id)?.key).toBe(`k${key}`);

  for (const budget of view.budgets) {
    const mine = [...jobs.values()].filter((j) => j.feature === budget.feature && j.cycle === budget.cycle);
    const held = mine.filter((j) => j.status === "running").reduce((sum, j) => sum + j.heldUnits, 0);
    const charged = mine.filter((j) => j.status !== "running").reduce((sum, j) => sum + j.chargedUnits!, 0);
    expect(budget.heldUnits, "held = the sum of the holds of running jobs").toBe(held);
    expect(budget.usedUnits, "used = the sum of what settled jobs were charged").toBe(charged);
    const ledger = await engine.run(usage.total, { accountId, feature: budget.feature, cycle: budget.cycle });
    expect(ledger.units, "the ledger's total = used").toBe(budget.usedUnits);
  }
  for (const job of jobs.values()) {
    for (const v of [job.heldUnits, job.usedUnits, job.chargedUnits ?? 0, job.releasedUnits ?? 0]) expect(Number.isSafeInteger(v) && v >= 0).toBe(true);
    expect(job.usedUnits).toBeLessThanOrEqual(job.heldUnits);
    if (job.status === "running") {
      expect(job.chargedUnits).toBeNull();
      continue;
    }
    expect(job.chargedUnits!).toBeLessThanOrEqual(job.heldUnits);
    expect(job.releasedUnits).toBe(job.heldUnits - job.chargedUnits!);
    const first = model.settled.get(job.id);
    const now = { status: job.status, chargedUnits: job.chargedUnits, releasedUnits: job.releasedUnits, heldUnits: job.heldUnits, settledAtMs: job.settledAtMs };
    if (first) expect(now, `settled job ${job.id} changed after settlement`).toEqual(first);
    else model.settled.set(job.id, now);
  }
}

async function runSchedule(engine: Engine, ctx: GateContext, provider: ControlledProvider, schedule: Schedule): Promise<void> {
  const accountId = (await engine.run(accounts.create, { name: "prop" })).id;
  provider.setLimit(accountId, schedule.limit);
  const model: Model = { jobByKey: new Map(), estimateByKey: new Map(), settled: new Map(), limitsSeen: new Set([schedule.limit]) };
  const withinLimit = (figures: { limitUnits: number | null; usedUnits: number; heldUnits: number }) => {
    expect(model.limitsSeen.has(figures.limitUnits), "the limit in force is one the provider gave").toBe(true);
    if (figures.limitUnits !== null) expect(figures.usedUnits + figures.heldUnits).toBeLessThanOrEqual(figures.limitUnits);
  };

  for (const round of schedule.rounds) {
    if (round.advanceMs > 0) vi.setSystemTime(Date.now() + round.advanceMs);
    if (round.newLimit !== undefined) {
      provider.setLimit(accountId, round.newLimit);
      model.limitsSeen.add(round.newLimit);
      await engine.run(gate.dropLimit, { accountId });
    }
    provider.down = round.providerDown;
    await Promise.all(
      round.ops.map(async (op) => {
        if (op.kind === "sweep") {
          await sweepExpiredJobs(ctx);
          return;
        }
        const jobId = model.jobByKey.get(op.key);
        if (op.kind === "reserve") {
          // A key keeps its first estimate (a different one is a conflict, tested elsewhere).
          const estimate = model.estimateByKey.get(op.key) ?? op.estimate;
          model.estimateByKey.set(op.key, estimate);
          const result = await reserveJob(ctx, { accountId, key: `k${op.key}`, estimate });
          if (result.outcome === "admitted") {
            const known = model.jobByKey.get(op.key);
            if (known) expect(result.job.id, "a replayed key names the same job").toBe(known);
            else model.jobByKey.set(op.key, result.job.id);
            if (!result.replayed) withinLimit(result.budget);
          }
          return;
        }
        if (!jobId) return;
        if (op.kind === "charge") {
          const result = await chargeJob(ctx, { jobId, tokens: op.tokens, asAccountId: accountId });
          if (result.outcome === "charged") expect(result.chargedUnits).toBe(op.tokens);
          if (result.outcome === "capped") expect(result.chargedUnits).toBeLessThan(op.tokens);
        } else if (op.kind === "extend") {
          const result = await extendJob(ctx, { jobId, tokens: op.tokens, asAccountId: accountId });
          if (result.outcome === "extended") withinLimit(result.budget);
        } else {
          await settleJob(ctx, { jobId, used: op.used, outcome: op.outcome, asAccountId: accountId });
        }
      }),
    );
    provider.down = false;
    await checkRound(engine, accountId, model);
  }
  // Every job settles exactly once: after the workers are gone and the lease has run out, the sweeper settles the rest.
  vi.setSystemTime(Date.now() + 121_000);
  await sweepExpiredJobs(ctx);
  await checkRound(engine, accountId, model);
  const view = await engine.run(gate.accountView, { accountId, jobs: 50 });
  expect(view.running).toEqual([]);
  expect(model.settled.size).toBe(model.jobByKey.size);
  for (const id of model.jobByKey.values()) {
    const row = await engine.run(usage.record, { key: id, accountId, feature: "tokens", cycle: view.budgets[0]!.cycle, units: 0, source: "job" });
    expect(row.recorded, `job ${id} has exactly one ledger row`).toBe(false);
    expect(row.entry.units).toBe(model.settled.get(id)!.chargedUnits);
  }
}

function describeOn(name: string, runs: number, make: () => Promise<{ engine: Engine; cleanup(): Promise<void> }>) {
  describe(`gate properties on ${name}`, () => {
    let engine: Engine;
    let cleanup: () => Promise<void>;
    const provider = new ControlledProvider();
    beforeAll(async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(T0);
      ({ engine, cleanup } = await make());
    });
    afterAll(async () => {
      await cleanup();
      vi.useRealTimers();
    });

    test(`${runs} random schedules keep every invariant`, async () => {
      const ctx: GateContext = { run: engine.run.bind(engine), provider, nowMs: () => Date.now(), log: () => {}, leaseMs: 120_000, sleep: async (ms) => void vi.setSystemTime(Date.now() + ms) };
      await fc.assert(
        fc.asyncProperty(scheduleArb, async (schedule) => runSchedule(engine, ctx, provider, schedule)),
        { numRuns: runs },
      );
    }, 600_000);
  });
}

describeOn("sqlite", SQLITE_RUNS, async () => {
  const dataDir = tempDataDir();
  const engine = new SqliteEngine({ dataDir, synchronous: "NORMAL" });
  return {
    engine,
    async cleanup() {
      await engine.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
describeOn("convex", CONVEX_RUNS, makeConvex);
