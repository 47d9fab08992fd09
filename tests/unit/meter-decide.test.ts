import { describe, expect, test } from "vitest";
import { decide, DEFAULT_RATE_LIMIT_WAIT_MS, inBatches, nightlyDue, REFUSED_WRITE_WAIT_MS, remarkAfter, standingOf, type Evidence } from "../../lib/meter/decide";

const base: Evidence = { feature: "clicks", ledgerUnits: 100, sentUnits: 100, lastReportFailed: false, providerUnits: 100, closed: false };

describe("decide: the verdict, in order of precedence", () => {
  test.each<[string, Partial<Evidence>, string, number | null]>([
    ["an unread meter is unreadable, whatever else is true", { providerUnits: null, closed: true, ledgerUnits: 5 }, "unreadable", null],
    ["equal meter and ledger match", {}, "match", null],
    ["equal meter and ledger match in a closed cycle too", { closed: true }, "match", null],
    ["a closed cycle that drifted is flagged, never repaired", { closed: true, providerUnits: 90 }, "closed_cycle_drift", null],
    ["a closed cycle billed over is flagged too", { closed: true, providerUnits: 110 }, "closed_cycle_drift", null],
    ["an open cycle with the meter above the ledger is over-billed and repaired to the ledger", { providerUnits: 130 }, "over_billed", 100],
    ["an open cycle with the meter below the ledger is under-billed and repaired to the ledger", { providerUnits: 70 }, "under_billed", 100],
    ["a meter at zero with a ledger of zero matches", { ledgerUnits: 0, sentUnits: null, providerUnits: 0 }, "match", null],
    ["negative corrections can take a ledger to zero; the repair is still the ledger", { ledgerUnits: 0, sentUnits: 3, providerUnits: 3 }, "over_billed", 0],
  ])("%s", (_title, change, verdict, repair) => {
    const decision = decide({ ...base, ...change });
    expect(decision.verdict).toBe(verdict);
    expect(decision.repairUnits).toBe(repair);
  });
});

describe("decide: the cause follows the evidence", () => {
  test.each<[string, Partial<Evidence>, RegExp]>([
    ["unreadable names the reason and says nothing was taken as zero", { providerUnits: null, unreadableReason: "429 Too Many Requests" }, /could not be read: 429 Too Many Requests\..*never taken as zero/],
    ["a match of all three numbers", {}, /ledger, the last report and the meter agree at 100/],
    ["a match with no report on record", { sentUnits: null }, /no report of this cycle is recorded/],
    ["a match although the last report sent something else", { sentUnits: 90 }, /moved without a report.*happens to agree/],
    ["a failed last report", { lastReportFailed: true, sentUnits: 80, providerUnits: 80 }, /^The last report failed, so the meter kept an older total\.$/],
    ["a late click: the meter holds what was sent, the ledger moved on", { sentUnits: 8031, providerUnits: 8031, ledgerUnits: 8457 }, /^The ledger changed after the last report\. A late click or a correction arrived\.$/],
    ["a late usage row of another feature", { feature: "tokens", sentUnits: 10, providerUnits: 10, ledgerUnits: 12 }, /A late usage row or a correction arrived/],
    ["a meter that moved up with no report: counted twice", { sentUnits: 100, providerUnits: 200 }, /moved without a report from the app \(last sent 100, meter 200\): a report was counted twice/],
    ["a meter that moved down with no report", { sentUnits: 100, providerUnits: 40 }, /moved down without a report from the app \(last sent 100, meter 40\)/],
    ["never reported and the meter is empty: a report never arrived", { sentUnits: null, providerUnits: 0 }, /No total has been reported for this cycle yet/],
    ["never reported but the meter holds something: another writer", { sentUnits: null, providerUnits: 7 }, /holds 7 though the app never reported/],
    ["a closed cycle's drift says it goes to the review list", { closed: true, sentUnits: 90, providerUnits: 90 }, /late click.*closed \(meter 90, ledger 100\).*review list/],
  ])("%s", (_title, change, cause) => {
    expect(decide({ ...base, ...change }).cause).toMatch(cause);
  });

  test("the repair is the ledger, never the meter or the last total sent", () => {
    for (const providerUnits of [0, 1, 99, 101, 10_000]) {
      for (const sentUnits of [null, 0, 50, 100, 150]) {
        const decision = decide({ ...base, providerUnits, sentUnits });
        if (decision.repairUnits !== null) expect(decision.repairUnits).toBe(base.ledgerUnits);
      }
    }
  });
});

describe("standing", () => {
  test("the same numbers stand the same; any change of a number or of closed stands differently", () => {
    const s = { ledgerUnits: 8457, sentUnits: 8457, providerUnits: 8457, closed: false };
    expect(standingOf(s)).toBe(standingOf({ ...s }));
    expect(standingOf(s)).toBe("ledger=8457 sent=8457 meter=8457 open");
    for (const change of [{ ledgerUnits: 8458 }, { sentUnits: null }, { providerUnits: null }, { providerUnits: 8031 }, { closed: true }]) {
      expect(standingOf({ ...s, ...change })).not.toBe(standingOf(s));
    }
  });
});

describe("remarkAfter: when a cycle comes back to the reporter", () => {
  const now = 1_000_000;
  test.each<[string, Parameters<typeof remarkAfter>[0], number | null]>([
    ["a written cycle is not marked again by the reporter", { kind: "ok" }, null],
    ["a failed write comes back at once (the next minute's run)", { kind: "failed", retryable: true }, now],
    ["a refused write (missing scope, unknown customer) waits 15 minutes", { kind: "failed", retryable: false }, now + REFUSED_WRITE_WAIT_MS],
    ["a 429 waits RateLimit-Reset", { kind: "rate_limited", retryAfterMs: 42_000 }, now + 42_000],
    ["a 429 without RateLimit-Reset waits 30 s", { kind: "rate_limited", retryAfterMs: null }, now + DEFAULT_RATE_LIMIT_WAIT_MS],
    ["a write put off by an earlier 429 waits for the same reset", { kind: "skipped", untilMs: now + 5_000 }, now + 5_000],
  ])("%s", (_title, outcome, expected) => {
    expect(remarkAfter(outcome, now)).toBe(expected);
  });
});

describe("inBatches: the reporter's groups of 10", () => {
  test.each([
    [0, []],
    [1, [1]],
    [10, [10]],
    [11, [10, 1]],
    [25, [10, 10, 5]],
    [100, [10, 10, 10, 10, 10, 10, 10, 10, 10, 10]],
  ])("%i items make groups of %j, in order", (n, sizes) => {
    const items = Array.from({ length: n }, (_, i) => i);
    const batches = inBatches(items, 10);
    expect(batches.map((b) => b.length)).toEqual(sizes);
    expect(batches.flat()).toEqual(items);
  });

  test("a batch size below 1 is a bug", () => {
    expect(() => inBatches([1], 0)).toThrow(/Invariant/);
  });
});

describe("nightlyDue: once a day after 03:00 UTC", () => {
  const t = (s: string) => Date.parse(s);
  test.each<[string, string | null, string, boolean]>([
    ["never run: due at once", null, "2026-10-20T12:00:00Z", true],
    ["ran after today's 03:00: not due", "2026-10-20T03:05:00Z", "2026-10-20T23:59:00Z", false],
    ["ran yesterday after 03:00, now past today's 03:00: due", "2026-10-19T03:05:00Z", "2026-10-20T03:00:00Z", true],
    ["ran yesterday after 03:00, now before today's 03:00: not due", "2026-10-19T03:05:00Z", "2026-10-20T02:59:59Z", false],
    ["ran two days ago (the server was down): due before 03:00 too", "2026-10-18T04:00:00Z", "2026-10-20T01:00:00Z", true],
    ["ran at 02:59, now 03:00: due", "2026-10-20T02:59:00Z", "2026-10-20T03:00:00Z", true],
    ["across a year end", "2026-12-31T03:30:00Z", "2027-01-01T03:00:00Z", true],
  ])("%s", (_title, last, now, due) => {
    expect(nightlyDue(last === null ? null : t(last), t(now))).toBe(due);
  });
});
