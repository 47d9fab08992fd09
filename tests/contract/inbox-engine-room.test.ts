/**
 * Part C's nine deliveries of three events — the plan change three times, the
 * payment five times, one old cancellation, the worker stopping once during
 * the first plan change — as signed JWTs through the real intake, on both
 * engines, against the pipeline and against the naive handler.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { articleCheckpoints, runSequence } from "../../lib/inbox/engine-room/run";
import { articleSequence } from "../../lib/inbox/engine-room/sequence";
import { engines, useEngine } from "./engines";
import { makeTestKeys, roomDeps, type TestKeys } from "./inbox-kit";

process.env.TOLLBOOTH_INBOX_KICK = "off";
const START_MS = Date.UTC(2026, 9, 21, 2, 29, 23);

describe.each(engines)("the Engine Room's nine deliveries (%s)", (_name, make) => {
  let keys: TestKeys;
  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: START_MS });
    keys = await makeTestKeys();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const engine = useEngine(make);
  const deps = () => roomDeps(engine(), keys, (ms) => vi.setSystemTime(Date.now() + ms));

  test("the naive handler: Pro with 10 after delivery 2, Free after delivery 7, 2,950 at the end", async () => {
    const naive = await runSequence(deps(), articleSequence(), "naive");
    expect(naive.steps.map((s) => `${s.plan} ${s.balance}`)).toEqual([
      "free 10",
      "pro 10", // stopped between the plan write and the allowance write
      "pro 500",
      "pro 990",
      "pro 1480",
      "pro 1970",
      "free 1970", // the old cancellation arrived last and won
      "pro 2460",
      "pro 2950", // 2,450 more than the plan allows
    ]);
    expect(naive.steps[1]!.answer).toBe(500);
  });

  test("the pipeline: 9 copies, 3 stored, 6 dropped; the stopped change finished by the next copy; the cancellation ignored; Pro with 500", async () => {
    const pipeline = await runSequence(deps(), articleSequence(), "pipeline");
    expect(pipeline.steps.every((s) => s.answer === 200)).toBe(true);
    expect([pipeline.copies, pipeline.stored, pipeline.dropped]).toEqual([9, 3, 6]);
    expect(pipeline.steps.map((s) => s.intake === "stored")).toEqual([true, true, false, false, false, false, true, false, false]);
    // Delivery 2: the worker stopped in the middle; nothing half-applied.
    expect(pipeline.steps[1]!.worker.join()).toMatch(/the worker stopped in the middle of attempt 1/);
    expect(pipeline.steps[1]!.plan).toBe("free");
    // Delivery 3, a copy: dropped, and the worker it started finished the change at attempt 2.
    expect(pipeline.steps[2]!.worker).toEqual(["plan: plan set to pro, Pro allowance already granted (attempt 2)"]);
    expect(pipeline.steps[6]!.worker).toEqual(["cancel: ignored: a newer plan change is already stored (attempt 1)"]);
    expect(pipeline.steps.slice(2).every((s) => s.plan === "pro" && s.balance === 500)).toBe(true);
    expect(pipeline.events.map((e) => [e.name, e.status, e.seenCount])).toEqual([
      ["cancel", "ignored", 1],
      ["plan", "applied", 3],
      ["pay", "applied", 5],
    ]);
    expect([pipeline.plan, pipeline.balance, pipeline.grants]).toEqual(["pro", 500, 1]);
  });

  test("every checkpoint of the article holds on real runs", async () => {
    const naive = await runSequence(deps(), articleSequence(), "naive");
    const pipeline = await runSequence(deps(), articleSequence(), "pipeline");
    const checkpoints = articleCheckpoints(naive, pipeline);
    expect(checkpoints.filter((c) => !c.ok)).toEqual([]);
    expect(checkpoints).toHaveLength(9);
  });
});
