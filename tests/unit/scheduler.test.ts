import { afterEach, describe, expect, test, vi } from "vitest";
import { Scheduler } from "../../lib/scheduler/runner";
import type { Schedule } from "../../lib/scheduler/schedules";
import type { OrchestrationContext } from "../../lib/orchestrations/context";

const logs: string[] = [];
const ctx: OrchestrationContext = {
  run: () => Promise.reject(new Error("not used")),
  provider: null as unknown as OrchestrationContext["provider"],
  nowMs: () => Date.now(),
  log: (m) => logs.push(m),
};

afterEach(() => {
  vi.useRealTimers();
  logs.length = 0;
});

describe("in-process scheduler", () => {
  test("runs each job on its interval; a failing job is logged and neither it nor the others stop", async () => {
    vi.useFakeTimers();
    let good = 0;
    let bad = 0;
    const jobs: Schedule[] = [
      { name: "good", intervalMs: 1000, run: async () => void good++ },
      { name: "bad", intervalMs: 1000, run: async () => { bad++; throw new Error("boom"); } },
    ];
    const scheduler = new Scheduler(jobs, ctx);
    scheduler.start();
    await vi.advanceTimersByTimeAsync(3500);
    expect(good).toBe(3);
    expect(bad).toBe(3);
    expect(logs.filter((l) => l.includes("bad failed: boom"))).toHaveLength(3);
    expect(scheduler.state().find((s) => s.name === "bad")).toMatchObject({ failures: 3, lastError: "boom" });
    await scheduler.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(good).toBe(3);
  });

  test("never runs two copies of one job at once", async () => {
    let concurrent = 0;
    let maxConcurrent = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const job: Schedule = {
      name: "slow",
      intervalMs: 60_000,
      run: async () => {
        concurrent++;
        maxConcurrent = Math.max(maxConcurrent, concurrent);
        await gate;
        concurrent--;
      },
    };
    const scheduler = new Scheduler([job], ctx);
    const first = scheduler.runNow("slow");
    expect(await scheduler.runNow("slow")).toBe(false);
    release();
    expect(await first).toBe(true);
    expect(maxConcurrent).toBe(1);
    await scheduler.stop();
  });

  test("stop waits for a run in progress", async () => {
    let finished = false;
    const job: Schedule = { name: "s", intervalMs: 60_000, run: async () => { await new Promise((r) => setTimeout(r, 50)); finished = true; } };
    const scheduler = new Scheduler([job], ctx);
    void scheduler.runNow("s");
    await scheduler.stop();
    expect(finished).toBe(true);
  });
});
