import { describe, expect, test } from "vitest";
import { decideRate, RATE_WINDOW_MS } from "../../lib/gate/rate";

const T0 = 1_800_000_000_000;

describe("the admission rate window (120 new jobs a minute per account)", () => {
  test.each([
    // window, now offset → allowed, next count
    ["no window yet", null, 0, true, 1],
    ["119 in the window", { windowStartMs: T0, windowAdmissions: 119 }, 30_000, true, 120],
    ["120 in the window", { windowStartMs: T0, windowAdmissions: 120 }, 30_000, false, null],
    ["120 in a window that just ended", { windowStartMs: T0, windowAdmissions: 120 }, RATE_WINDOW_MS, true, 1],
    ["a window from the future (clock moved back) starts over", { windowStartMs: T0 + 5_000, windowAdmissions: 120 }, 0, true, 1],
  ] as const)("%s → allowed %s", (_title, window, offsetMs, allowed, count) => {
    const decision = decideRate(window, 120, T0 + offsetMs);
    expect(decision.allowed).toBe(allowed);
    if (decision.allowed) expect(decision.next.windowAdmissions).toBe(count);
  });

  test("a full window says how long until it ends", () => {
    const decision = decideRate({ windowStartMs: T0, windowAdmissions: 120 }, 120, T0 + 45_500);
    expect(decision).toMatchObject({ allowed: false, retryAfterMs: 14_500 });
    expect(!decision.allowed && decision.reason).toBe("This account may start 120 jobs a minute and has started 120; try again in 15 s.");
  });

  test("a new window opens at the first admission after the last one ended", () => {
    const decision = decideRate({ windowStartMs: T0, windowAdmissions: 7 }, 120, T0 + 61_000);
    expect(decision).toEqual({ allowed: true, next: { windowStartMs: T0 + 61_000, windowAdmissions: 1 } });
  });

  test("a rate below 1 is a broken invariant", () => {
    expect(() => decideRate(null, 0, T0)).toThrow(/Invariant broken/);
  });
});
