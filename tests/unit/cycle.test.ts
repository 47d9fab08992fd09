import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { anchorProblem, cycleNamed, cycleOf, isClosed } from "../../lib/usage/cycle";

const utc = (s: string) => Date.parse(s);

describe("cycleOf", () => {
  // The article's example: anchor 20 October 15:29 UTC.
  const anchor = utc("2026-10-20T15:29:00Z");
  test.each([
    ["2026-11-19T12:00:00Z", anchor, "2026-10", "2026-10-20T15:29:00.000Z", "2026-11-20T15:29:00.000Z"],
    ["2026-11-21T00:00:00Z", anchor, "2026-11", "2026-11-20T15:29:00.000Z", "2026-12-20T15:29:00.000Z"],
    ["2026-11-20T15:28:59.999Z", anchor, "2026-10", "2026-10-20T15:29:00.000Z", "2026-11-20T15:29:00.000Z"],
    ["2026-11-20T15:29:00Z", anchor, "2026-11", "2026-11-20T15:29:00.000Z", "2026-12-20T15:29:00.000Z"],
    // Year end: the December cycle runs into January.
    ["2027-01-05T00:00:00Z", anchor, "2026-12", "2026-12-20T15:29:00.000Z", "2027-01-20T15:29:00.000Z"],
    ["2026-01-10T00:00:00Z", anchor, "2025-12", "2025-12-20T15:29:00.000Z", "2026-01-20T15:29:00.000Z"],
    // Anchored on the 28th through February, leap and not.
    ["2027-03-01T00:00:00Z", utc("2026-01-28T00:00:00Z"), "2027-02", "2027-02-28T00:00:00.000Z", "2027-03-28T00:00:00.000Z"],
    ["2028-02-29T00:00:00Z", utc("2026-01-28T00:00:00Z"), "2028-02", "2028-02-28T00:00:00.000Z", "2028-03-28T00:00:00.000Z"],
    ["2027-02-27T23:59:59Z", utc("2026-01-28T00:00:00Z"), "2027-01", "2027-01-28T00:00:00.000Z", "2027-02-28T00:00:00.000Z"],
    // No anchor: UTC calendar months.
    ["2026-10-20T12:00:00Z", null, "2026-10", "2026-10-01T00:00:00.000Z", "2026-11-01T00:00:00.000Z"],
    ["2026-12-31T23:59:59.999Z", null, "2026-12", "2026-12-01T00:00:00.000Z", "2027-01-01T00:00:00.000Z"],
  ] as const)("%s with anchor %s is cycle %s", (at, anchorMs, name, start, end) => {
    const cycle = cycleOf(utc(at), anchorMs);
    expect(cycle.name).toBe(name);
    expect(new Date(cycle.startMs).toISOString()).toBe(start);
    expect(new Date(cycle.endMs).toISOString()).toBe(end);
  });

  test("every moment lies in exactly one cycle, cycles are contiguous, and a name gives its cycle back", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: utc("2000-01-01T00:00:00Z"), max: utc("2100-01-01T00:00:00Z") }),
        fc.option(fc.integer({ min: 1, max: 28 }).chain((day) => fc.tuple(fc.constant(day), fc.integer({ min: 0, max: 86_399_999 }))), { nil: null }),
        (atMs, anchorParts) => {
          const anchorMs = anchorParts === null ? null : Date.UTC(2026, 0, anchorParts[0]) + anchorParts[1];
          const cycle = cycleOf(atMs, anchorMs);
          expect(cycle.startMs).toBeLessThanOrEqual(atMs);
          expect(atMs).toBeLessThan(cycle.endMs);
          expect(cycleOf(cycle.endMs, anchorMs).startMs).toBe(cycle.endMs);
          expect(cycleOf(cycle.startMs - 1, anchorMs).endMs).toBe(cycle.startMs);
          expect(cycleNamed(cycle.name, anchorMs)).toEqual(cycle);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("anchors", () => {
  test.each([
    ["2026-10-20T15:29:00Z", null],
    ["2026-10-28T23:59:59Z", null],
    ["2026-10-01T00:00:00Z", null],
    ["2026-10-29T00:00:00Z", "day 29"],
    ["2026-10-31T10:00:00Z", "day 31"],
  ])("an agreement start of %s → %s", (at, problem) => {
    const result = anchorProblem(utc(at));
    if (problem === null) expect(result).toBeNull();
    else expect(result).toContain(problem);
  });

  test("a cycle is closed from its end on", () => {
    const cycle = cycleOf(utc("2026-11-01T00:00:00Z"), null);
    expect(isClosed(cycle, cycle.endMs - 1)).toBe(false);
    expect(isClosed(cycle, cycle.endMs)).toBe(true);
  });
});
