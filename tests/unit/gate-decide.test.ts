import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { admit, chargeStep, remainingOf, settle } from "../../lib/gate/decide";

describe("admit: check and hold in one step", () => {
  test.each([
    // limit, used, held, amount → admitted, remaining
    [100_000, 0, 0, 40_000, true, 60_000],
    [100_000, 0, 40_000, 40_000, true, 20_000],
    [100_000, 0, 80_000, 40_000, false, 20_000],
    [100_000, 60_000, 0, 40_000, true, 0],
    [100_000, 60_000, 0, 40_001, false, 40_000],
    [100_000, 100_000, 0, 1, false, 0],
    // A plan that shrank below used + held leaves nothing, never a negative number.
    [50_000, 30_000, 60_000, 1, false, 0],
    [0, 0, 0, 1, false, 0],
  ] as const)("limit %i, used %i, held %i, asking %i → admitted %s, %i left", (limitUnits, usedUnits, heldUnits, amount, admitted, remaining) => {
    const result = admit({ limitUnits, usedUnits, heldUnits }, amount);
    expect(result.admitted).toBe(admitted);
    expect(result.remainingUnits).toBe(remaining);
  });

  test("a refusal says how much the job needs and how much is left", () => {
    expect(admit({ limitUnits: 100_000, usedUnits: 0, heldUnits: 80_000 }, 40_000)).toEqual({
      admitted: false,
      remainingUnits: 20_000,
      reason: "The job needs 40000 and 20000 is left.",
    });
  });

  test("no maximum admits anything and has no remaining figure", () => {
    expect(admit({ limitUnits: null, usedUnits: 10 ** 12, heldUnits: 10 ** 12 }, 10 ** 12)).toEqual({ admitted: true, remainingUnits: null });
    expect(remainingOf({ limitUnits: null, usedUnits: 5, heldUnits: 5 })).toBeNull();
  });

  test.each([
    [{ limitUnits: 10, usedUnits: -1, heldUnits: 0 }, 1],
    [{ limitUnits: 10, usedUnits: 0, heldUnits: 0.5 }, 1],
    [{ limitUnits: 10, usedUnits: 0, heldUnits: 0 }, 1.5],
    [{ limitUnits: -10, usedUnits: 0, heldUnits: 0 }, 1],
  ])("a negative or fractional amount is a broken invariant, not an outcome (%o, %d)", (budget, amount) => {
    expect(() => admit(budget, amount)).toThrow(/Invariant broken/);
  });

  test("an admission never lets used + held pass the limit (property)", () => {
    fc.assert(
      fc.property(fc.nat(10 ** 9), fc.nat(10 ** 9), fc.nat(10 ** 9), fc.integer({ min: 1, max: 10 ** 9 }), (limitUnits, usedUnits, heldUnits, amount) => {
        const result = admit({ limitUnits, usedUnits, heldUnits }, amount);
        if (result.admitted) expect(usedUnits + heldUnits + amount).toBeLessThanOrEqual(limitUnits);
        else expect(usedUnits + heldUnits + amount).toBeGreaterThan(limitUnits);
      }),
    );
  });
});

describe("chargeStep: the hold is also the cap", () => {
  test.each([
    // held, used, tokens → charged, capped
    [40_000, 0, 10_000, 10_000, false],
    [40_000, 30_000, 10_000, 10_000, false], // exactly to the hold: not capped
    [40_000, 35_000, 10_000, 5_000, true], // passes the hold: charges what is left, capped
    [40_000, 40_000, 1, 0, true],
    [40_000, 40_000, 0, 0, false], // a step of 0 is a sign of life
    [0, 0, 0, 0, false],
  ] as const)("held %i, used %i, step %i → charged %i, capped %s", (held, used, tokens, charged, capped) => {
    expect(chargeStep(held, used, tokens)).toEqual({ chargedUnits: charged, capped });
  });

  test("usage past the hold, or fractional tokens, are broken invariants", () => {
    expect(() => chargeStep(10, 11, 0)).toThrow(/Invariant broken/);
    expect(() => chargeStep(10, 0, 1.5)).toThrow(/Invariant broken/);
    expect(() => chargeStep(10, 0, -1)).toThrow(/Invariant broken/);
  });

  test("a step never charges past the hold and never charges more than asked (property)", () => {
    fc.assert(
      fc.property(fc.nat(10 ** 9), fc.nat(10 ** 9), fc.nat(10 ** 9), (a, b, tokens) => {
        const [used, held] = a <= b ? [a, b] : [b, a];
        const { chargedUnits, capped } = chargeStep(held, used, tokens);
        expect(used + chargedUnits).toBeLessThanOrEqual(held);
        expect(chargedUnits).toBeLessThanOrEqual(tokens);
        expect(capped).toBe(chargedUnits < tokens);
      }),
    );
  });
});

describe("settle: pay for what was used", () => {
  test.each([
    // held, used → charged, released
    [40_000, 31_200, 31_200, 8_800], // the article's example
    [40_000, 24_000, 24_000, 16_000], // failed at 60%: charged for the part it did
    [40_000, 40_000, 40_000, 0],
    [40_000, 55_000, 40_000, 0], // reported past the hold: never charged more than held
    [40_000, 0, 0, 40_000],
    [0, 0, 0, 0],
  ] as const)("held %i, used %i → charged %i, released %i", (held, used, charged, released) => {
    expect(settle(held, used)).toEqual({ chargedUnits: charged, releasedUnits: released });
  });

  test("charged never exceeds held and released is held minus charged (property)", () => {
    fc.assert(
      fc.property(fc.nat(10 ** 12), fc.nat(10 ** 12), (held, used) => {
        const { chargedUnits, releasedUnits } = settle(held, used);
        expect(chargedUnits).toBeLessThanOrEqual(held);
        expect(releasedUnits).toBe(held - chargedUnits);
        expect(Number.isSafeInteger(chargedUnits) && chargedUnits >= 0 && releasedUnits >= 0).toBe(true);
      }),
    );
  });

  test("fractional or negative figures are broken invariants", () => {
    expect(() => settle(10, 2.5)).toThrow(/Invariant broken/);
    expect(() => settle(-1, 0)).toThrow(/Invariant broken/);
  });
});
