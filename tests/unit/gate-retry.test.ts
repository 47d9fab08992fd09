import { describe, expect, test } from "vitest";
import { CONFLICT_TRIES_MAX, conflictWaitMs, isWriteConflict, retryConflicts } from "../../lib/gate/orchestrate";

const conflict = () =>
  new Error('Documents read from or written to the table "budgets" changed while this mutation was being run and on every subsequent retry.');

describe("retrying Convex write conflicts (reserve and settle only)", () => {
  test("recognises Convex's write-conflict error and nothing else", () => {
    expect(isWriteConflict(conflict())).toBe(true);
    expect(isWriteConflict(new Error("OptimisticConcurrencyControlFailure"))).toBe(true);
    expect(isWriteConflict(new Error("No job job_x."))).toBe(false);
    expect(isWriteConflict(null)).toBe(false);
  });

  test.each([
    // try, the window the wait is drawn from (half of it to all of it)
    [1, 15],
    [2, 30],
    [3, 60],
    [5, 240],
    [7, 960],
    [8, 1000],
    [20, 1000],
  ])("the wait after try %i is random within a window of %i ms: growing, never above 1 s", (attempt, windowMs) => {
    expect(conflictWaitMs(attempt, () => 0)).toBe(Math.floor(windowMs / 2));
    expect(conflictWaitMs(attempt, () => 0.999999)).toBeLessThanOrEqual(windowMs);
    expect(conflictWaitMs(attempt, () => 0.999999)).toBeGreaterThan(conflictWaitMs(attempt, () => 0.2));
  });

  test("retries a conflict until it passes, waiting between tries", async () => {
    const waits: number[] = [];
    let calls = 0;
    const value = await retryConflicts({ log: () => {}, sleep: async (ms) => void waits.push(ms) }, async () => {
      if (++calls < 4) throw conflict();
      return "ok";
    });
    expect(value).toBe("ok");
    expect(calls).toBe(4);
    expect(waits).toHaveLength(3);
    expect(waits.every((w) => w <= 1000)).toBe(true);
  });

  test(`gives up after ${CONFLICT_TRIES_MAX} tries and passes the error on`, async () => {
    let calls = 0;
    await expect(
      retryConflicts({ log: () => {}, sleep: async () => {} }, async () => {
        calls++;
        throw conflict();
      }),
    ).rejects.toThrow(/changed while this mutation/);
    expect(calls).toBe(CONFLICT_TRIES_MAX);
  });

  test("never retries anything that is not a conflict", async () => {
    let calls = 0;
    await expect(
      retryConflicts({ log: () => {}, sleep: async () => {} }, async () => {
        calls++;
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(calls).toBe(1);
  });
});
