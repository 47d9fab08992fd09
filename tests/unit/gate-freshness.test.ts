import { describe, expect, test } from "vitest";
import { decideLimit, LIMIT_FRESH_MS, LIMIT_READ_INTERVAL_MS, LIMIT_STALE_MAX_MS, type LimitCacheState } from "../../lib/gate/freshness";

const T0 = Date.UTC(2026, 9, 20, 12, 0, 0);
const s = (seconds: number) => seconds * 1000;
/** Read `readAgoS` ago; last asked `attemptAgoS` ago, which failed unless it was the read itself. */
const read = (readAgoS: number, attemptAgoS: number | null, now = T0): LimitCacheState => ({
  kind: "limited",
  maxUnits: 100_000,
  readAtMs: now - s(readAgoS),
  lastAttemptAtMs: attemptAgoS === null ? null : now - s(attemptAgoS),
  lastError: attemptAgoS !== null && attemptAgoS < readAgoS ? "no answer" : null,
});

describe("the limit-freshness decision", () => {
  test("the constants are the article's: fresh 60 s, stale up to 10 min, one read a minute", () => {
    expect([LIMIT_FRESH_MS, LIMIT_STALE_MAX_MS, LIMIT_READ_INTERVAL_MS]).toEqual([60_000, 600_000, 60_000]);
  });

  test.each([
    // state, → use
    ["never read, never asked", null, "refresh"],
    ["read just now", read(0, 0), "fresh"],
    ["read 59.999 s ago", { ...read(0, 0), readAtMs: T0 - 59_999, lastAttemptAtMs: T0 - 59_999 }, "fresh"],
    ["read 60 s ago: ask again", read(60, 60), "refresh"],
    ["read 90 s ago, asked 30 s ago and failed: stale", read(90, 30), "stale"],
    ["read 9 min 59 s ago, asked 10 s ago and failed: stale", read(599, 10), "stale"],
    ["read 10 min ago, asked 10 s ago and failed: refuse", read(600, 10), "unavailable"],
    ["read 10 min ago, not asked for a minute: ask", read(600, 60), "refresh"],
    ["read an hour ago, asked 59 s ago: refuse", read(3600, 59), "unavailable"],
    ["dropped/unread, asked 5 s ago and failed: refuse", { kind: "unread", maxUnits: null, readAtMs: null, lastAttemptAtMs: T0 - s(5), lastError: "no answer" }, "unavailable"],
    ["unread, never asked", { kind: "unread", maxUnits: null, readAtMs: null, lastAttemptAtMs: null, lastError: null }, "refresh"],
    ["unread, asked 1 s ago, no answer yet: wait for it", { kind: "unread", maxUnits: null, readAtMs: null, lastAttemptAtMs: T0 - s(1), lastError: null }, "pending"],
    ["unread, asked 15 s ago, still no answer: taken as failed", { kind: "unread", maxUnits: null, readAtMs: null, lastAttemptAtMs: T0 - s(15), lastError: null }, "unavailable"],
    ["read 11 min ago, asked 2 s ago, no answer yet: wait for it", { ...read(660, 2), lastError: null }, "pending"],
    ["read 2 min ago, asked 2 s ago, no answer yet: the stale value serves meanwhile", { ...read(120, 2), lastError: null }, "stale"],
  ] as [string, LimitCacheState | null, string][])("%s → %s", (_title, state, use) => {
    expect(decideLimit(state, T0).use).toBe(use);
  });

  test("a fresh or stale decision carries the value and its age; no maximum is null", () => {
    expect(decideLimit(read(10, 10), T0)).toEqual({ use: "fresh", limitUnits: 100_000, ageMs: 10_000 });
    expect(decideLimit({ kind: "unlimited", maxUnits: null, readAtMs: T0 - s(120), lastAttemptAtMs: T0 - s(30), lastError: "no answer" }, T0)).toEqual({
      use: "stale",
      limitUnits: null,
      ageMs: 120_000,
    });
  });

  test("a refusal says when the provider may be asked again", () => {
    const decision = decideLimit(read(700, 20), T0);
    expect(decision).toMatchObject({ use: "unavailable", retryAfterMs: 40_000 });
    expect(decision.use === "unavailable" && decision.reason).toMatch(/refused until it can be read/);
  });

  test("at most one provider read per minute: after an attempt, nothing asks again for 60 s", () => {
    const state = read(120, 0);
    for (let after = 0; after < 60; after += 5) expect(decideLimit(state, T0 + s(after)).use).not.toBe("refresh");
    expect(decideLimit(state, T0 + s(60)).use).toBe("refresh");
  });

  test("a read time in the future (clock skew between servers) counts as fresh, not as negative age", () => {
    expect(decideLimit({ ...read(0, 0), readAtMs: T0 + 5_000 }, T0)).toEqual({ use: "fresh", limitUnits: 100_000, ageMs: 0 });
  });
});
