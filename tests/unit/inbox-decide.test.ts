import { describe, expect, test } from "vitest";
import {
  afterFailure,
  chooseClaims,
  DRILL_LEASE_MS,
  eventTimeOf,
  LEASE_MS,
  leaseFor,
  MAX_ATTEMPTS,
  nextAttemptAt,
  parseEventTime,
  planChangeApplies,
} from "../../lib/inbox/decide";

const NOW = Date.UTC(2026, 9, 21, 12, 0, 0);

describe("afterFailure: the retry schedule is 5 s, 30 s, 2 min, 10 min, 1 h, then dead", () => {
  test.each([
    [1, { status: "failed", nextAttemptAtMs: NOW + 5_000 }],
    [2, { status: "failed", nextAttemptAtMs: NOW + 30_000 }],
    [3, { status: "failed", nextAttemptAtMs: NOW + 120_000 }],
    [4, { status: "failed", nextAttemptAtMs: NOW + 600_000 }],
    [5, { status: "failed", nextAttemptAtMs: NOW + 3_600_000 }],
    [6, { status: "dead" }],
    [7, { status: "dead" }],
  ] as const)("failed attempt %i → %o", (attempts, expected) => {
    expect(afterFailure(attempts, NOW)).toEqual(expected);
  });

  test("six attempts in all", () => expect(MAX_ATTEMPTS).toBe(6));
  test("nextAttemptAt is the same schedule, null once dead", () => {
    expect(nextAttemptAt(1, NOW)).toBe(NOW + 5_000);
    expect(nextAttemptAt(6, NOW)).toBeNull();
  });
  test("attempt 0 is a bug, not an outcome", () => expect(() => afterFailure(0, NOW)).toThrow(/Invariant/));
});

describe("the plan-time guard", () => {
  test.each([
    [0, 1, true, "the first plan change applies"],
    [1_000, 2_000, true, "a newer change applies"],
    [2_000, 1_000, false, "an older change is ignored"],
    [2_000, 2_000, false, "a tie is ignored (Part C's limit)"],
  ])("stored %i, event %i → %s (%s)", (stored, event, applies) => {
    expect(planChangeApplies(stored, event)).toBe(applies);
  });
});

describe("parseEventTime", () => {
  test.each([
    // Part C's live payload: nanoseconds and an offset.
    ["2026-10-21T02:29:23.403633+11:00", Date.UTC(2026, 9, 20, 15, 29, 23, 403)],
    ["2026-10-21T02:29:24.481368869+11:00", Date.UTC(2026, 9, 20, 15, 29, 24, 481)],
    ["2026-02-03T12:00:00.000Z", Date.UTC(2026, 1, 3, 12)],
    ["2026-02-03T12:00:00Z", Date.UTC(2026, 1, 3, 12)],
    ["2026-02-03T12:00:00-0130", Date.UTC(2026, 1, 3, 13, 30)],
    [1_790_000_000, 1_790_000_000_000], // seconds
    [1_790_000_000_123, 1_790_000_000_123], // milliseconds
  ] as const)("%s → %i", (value, expected) => {
    expect(parseEventTime(value)).toBe(expected);
  });

  test.each([["yesterday"], ["2026-02-03"], ["2026-13-03T12:00:00Z"], ["2026-02-03T12:00:00"], [""], [null], [-5], [Number.NaN], [{}]])("%o is not a time", (value) => {
    expect(parseEventTime(value)).toBeNull();
  });

  test("event_timestamp (when it happened) wins over timestamp (when it was sent)", () => {
    expect(eventTimeOf({ event_timestamp: "2026-10-21T02:29:23Z", timestamp: "2026-10-21T02:29:24Z" })).toBe(Date.UTC(2026, 9, 21, 2, 29, 23));
    expect(eventTimeOf({ timestamp: "2026-10-21T02:29:24Z" })).toBe(Date.UTC(2026, 9, 21, 2, 29, 24));
    expect(eventTimeOf({ event_timestamp: "garbage", timestamp: "2026-10-21T02:29:24Z" })).toBe(Date.UTC(2026, 9, 21, 2, 29, 24));
    expect(eventTimeOf({})).toBeNull();
  });
});

describe("chooseClaims", () => {
  const e = (id: string, occurredAtMs: number) => ({ id, occurredAtMs });
  test("takes the oldest events first, ties by id, each once, at most the limit", () => {
    const chosen = chooseClaims([e("evt_c", 3), e("evt_b", 1), e("evt_a", 1), e("evt_b", 1), e("evt_d", 2)], 3);
    expect(chosen.map((x) => x.id)).toEqual(["evt_a", "evt_b", "evt_d"]);
  });
});

describe("leaseFor", () => {
  test("a normal claim holds 30 s; the drilled attempt stops mid-apply with a 1 s lease", () => {
    expect(leaseFor({ stopAtAttempt: null }, 1)).toEqual({ leaseMs: LEASE_MS, stopMidApply: false });
    expect(leaseFor({ stopAtAttempt: 1 }, 1)).toEqual({ leaseMs: DRILL_LEASE_MS, stopMidApply: true });
    expect(leaseFor({ stopAtAttempt: 1 }, 2)).toEqual({ leaseMs: LEASE_MS, stopMidApply: false });
    expect(LEASE_MS).toBe(30_000);
  });
});
