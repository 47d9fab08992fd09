/**
 * Random schedules of clicks, job settlements, corrections, time passing,
 * reporter and reconciler runs, while the stand-in fails writes, answers 429,
 * drifts, stops answering and is written by someone else. Once the faults
 * stop and one reporter and one reconciler run have passed:
 *  - every open cycle's provider total equals its ledger total;
 *  - no closed cycle was ever written (by the reporter or by a repair);
 *  - no evidence row repeats the row before it;
 *  - the ledger holds exactly what the schedule recorded, and every counter equals its ledger.
 *
 * One engine serves every schedule (each gets its own account, and time only
 * moves forward), so 1,000 schedules fit in well under a minute.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as links from "../../lib/links/scripts";
import { runReconciler, sumLedger } from "../../lib/meter/reconciler";
import { runReporter } from "../../lib/meter/reporter";
import * as meter from "../../lib/meter/scripts";
import * as standin from "../../lib/standin/scripts";
import { cycleNamed, cycleOf } from "../../lib/usage/cycle";
import * as usage from "../../lib/usage/scripts";
import { makeWorld, type MeterWorld } from "./meter-world";

const MINUTE = 60_000;
const DAY = 86_400_000;

type Op =
  | { op: "click"; n: number }
  | { op: "job"; units: number }
  | { op: "correct"; pick: number }
  | { op: "wait"; ms: number }
  | { op: "report" }
  | { op: "reconcile" }
  | { op: "failWrites"; count: number }
  | { op: "throttle"; count: number; resetSeconds: number }
  | { op: "drift"; amount: number; count: number }
  | { op: "hang"; count: number }
  | { op: "otherWriter"; delta: number }
  | { op: "clearFaults" };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant("click" as const), n: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("job" as const), units: fc.integer({ min: 1, max: 5000 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("correct" as const), pick: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({ op: fc.constant("wait" as const), ms: fc.oneof(fc.integer({ min: 1, max: 5 * MINUTE }), fc.integer({ min: DAY, max: 25 * DAY })) }),
  },
  { weight: 4, arbitrary: fc.constant({ op: "report" as const }) },
  { weight: 3, arbitrary: fc.constant({ op: "reconcile" as const }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("failWrites" as const), count: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("throttle" as const), count: fc.integer({ min: 1, max: 3 }), resetSeconds: fc.integer({ min: 0, max: 90 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("drift" as const),
      amount: fc.integer({ min: -20, max: 20 }).filter((n) => n !== 0),
      count: fc.integer({ min: 1, max: 2 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("hang" as const), count: fc.integer({ min: 1, max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("otherWriter" as const), delta: fc.integer({ min: 1, max: 30 }) }) },
  { weight: 1, arbitrary: fc.constant({ op: "clearFaults" as const }) },
);

const scheduleArb = fc.record({
  anchorDay: fc.option(fc.integer({ min: 1, max: 28 }), { nil: null }),
  ops: fc.array(opArb, { minLength: 1, maxLength: 14 }),
});

async function runSchedule(w: MeterWorld, schedule: { anchorDay: number | null; ops: Op[] }, runIndex: number) {
  // Time only moves forward from one schedule to the next; each schedule has its own account.
  w.setNow(w.now() + 40 * DAY);
  await w.clearFaults();
  const start = new Date(w.now());
  const anchorMs = schedule.anchorDay === null ? null : Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), schedule.anchorDay, 15, 29);
  const accountId = await w.account(anchorMs);
  const link = await w.engine.run(links.create, { accountId, destination: "https://example.com/p" });
  const expected = new Map<string, number>(); // `${feature} ${cycle}` → units the schedule recorded
  const rows: { key: string; units: number; corrected: boolean }[] = [];
  const add = (feature: string, cycle: string, units: number) => expected.set(`${feature} ${cycle}`, (expected.get(`${feature} ${cycle}`) ?? 0) + units);
  let n = 0;

  for (const step of schedule.ops) {
    switch (step.op) {
      case "click":
        for (let i = 0; i < step.n; i++) {
          const key = `click_00000000-0000-4000-8000-${String(runIndex * 1000 + n++).padStart(12, "0")}`;
          const clicked = await w.engine.run(links.click, { code: link.code, key });
          expect(clicked?.recorded).toBe(true);
          add("clicks", cycleOf(w.now(), anchorMs).name, 1);
          rows.push({ key, units: 1, corrected: false });
        }
        break;
      case "job": {
        const key = `job-${runIndex}-${n++}`;
        const cycle = cycleOf(w.now(), anchorMs).name;
        await w.engine.run(usage.record, { key, accountId, feature: "tokens", cycle, units: step.units, source: "job", ref: key });
        add("tokens", cycle, step.units);
        rows.push({ key, units: step.units, corrected: false });
        break;
      }
      case "correct": {
        const open = rows.filter((r) => !r.corrected);
        if (open.length === 0) break;
        const row = open[step.pick % open.length]!;
        const { entry } = await w.engine.run(usage.correct, { entryKey: row.key, reason: "property test" });
        row.corrected = true;
        add(entry.feature, entry.cycle, entry.units);
        break;
      }
      case "wait":
        w.setNow(w.now() + step.ms);
        break;
      case "report":
        await runReporter(w.ctx);
        break;
      case "reconcile":
        await runReconciler(w.ctx, { trigger: "on_demand", accountIds: [accountId] });
        break;
      case "failWrites":
        await w.fault({ kind: "fail_writes", count: step.count });
        break;
      case "throttle":
        await w.fault({ kind: "rate_limit", count: step.count, resetSeconds: step.resetSeconds });
        break;
      case "drift":
        await w.fault({ kind: "drift", amount: step.amount, count: step.count });
        break;
      case "hang":
        await w.fault({ kind: "hang", count: step.count });
        break;
      case "otherWriter": {
        // Something else writes to the meter: a delta on the current cycle, with no report from the app.
        const cycle = cycleOf(w.now(), anchorMs).name;
        await w.engine.run(standin.setUsage, { accountId, featureCode: "clicks", cycle, kind: "delta", value: step.delta });
        break;
      }
      case "clearFaults":
        await w.clearFaults();
        break;
    }
  }

  // The faults stop; one reporter run and one reconciler run pass.
  await w.clearFaults();
  await runReporter(w.ctx);
  const final = await runReconciler(w.ctx, { trigger: "on_demand", accountIds: [accountId] });
  expect(final.error).toBeNull();

  const { cycles } = await w.engine.run(meter.cyclesOf, { accountId, limit: 200 });
  for (const c of cycles) {
    const key = { accountId, feature: c.feature, cycle: c.cycle };
    const ledger = (await sumLedger(w.ctx, key)).units;
    expect(ledger, `ledger of ${c.feature} ${c.cycle}`).toBe(expected.get(`${c.feature} ${c.cycle}`) ?? 0);
    expect((await w.engine.run(usage.total, key)).units, `counter of ${c.feature} ${c.cycle}`).toBe(ledger);

    const bounds = cycleNamed(c.cycle, anchorMs);
    const { records, total } = await w.engine.run(standin.meterRecords, { accountId, featureCode: c.feature, cycle: c.cycle, limit: 200 });
    if (w.now() < bounds.endMs) expect(total, `meter of open cycle ${c.feature} ${c.cycle}`).toBe(ledger);
    const lateWrites = records.filter((r) => r.source === "write" && r.kind === "absolute" && r.recordedAtMs >= bounds.endMs);
    expect(lateWrites, `writes to closed cycle ${c.feature} ${c.cycle}`).toEqual([]);

    const { evidence } = await w.engine.run(meter.cycleDetail, { ...key, limit: 200 });
    for (let i = 0; i + 1 < evidence.length; i++) {
      expect(evidence[i]!.standing === evidence[i + 1]!.standing && !evidence[i]!.countersRebuilt, `evidence repeated for ${c.feature} ${c.cycle}`).toBe(false);
    }
  }
  // Every cycle the schedule recorded into has a meter row (so the reconciler saw it).
  expect(new Set(cycles.map((c) => `${c.feature} ${c.cycle}`))).toEqual(new Set(expected.keys()));
}

describe.each([
  ["sqlite", 1000],
  ["convex", 50],
] as const)("meter properties on %s", (name, numRuns) => {
  let w: MeterWorld;
  let runIndex = 0;
  beforeAll(async () => {
    w = await makeWorld(name, Date.parse("2026-01-05T00:00:00Z"), { synchronous: "NORMAL" });
  });
  afterAll(async () => {
    await w?.cleanup();
  });

  test(`${numRuns} random schedules under faults: after the faults stop, one report and one reconcile make every open meter equal its ledger, no closed cycle is written, no evidence repeats`, async () => {
    await fc.assert(
      fc.asyncProperty(scheduleArb, async (schedule) => {
        await runSchedule(w, schedule, runIndex++);
      }),
      { numRuns, seed: Number(process.env.FC_SEED ?? 20261020), endOnFailure: true },
    );
  }, 240_000);
});
