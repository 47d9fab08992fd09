import { describe, expect, test } from "vitest";
import { cycleNameOf } from "../../lib/provider/cycle";
import { applyMeterWrite, decideCall, defaultAnchorMs, type StandinOperation } from "../../lib/standin/decide";
import type { StandinFault } from "../../lib/standin/repo";

const fault = (f: Partial<StandinFault> & Pick<StandinFault, "kind">): StandinFault => ({ remaining: 1, amount: null, scope: null, setAtMs: 0, ...f });

describe("decideCall: which switch a call meets, in order of precedence", () => {
  const cases: { name: string; faults: StandinFault[]; op: StandinOperation; fate: unknown; updates: unknown[] }[] = [
    { name: "no switch on: the call proceeds", faults: [], op: "setUsage", fate: { fate: "proceed", driftBy: 0 }, updates: [] },
    {
      name: "hang beats everything and counts down",
      faults: [fault({ kind: "hang", remaining: 3 }), fault({ kind: "rate_limit", amount: 5 })],
      op: "readLimit",
      fate: { fate: "hang" },
      updates: [{ kind: "hang", remaining: 2 }],
    },
    { name: "hang until cleared is not consumed", faults: [fault({ kind: "hang", remaining: null })], op: "readUsage", fate: { fate: "hang" }, updates: [] },
    {
      name: "429 before a scope check, last one deletes the switch",
      faults: [fault({ kind: "rate_limit", amount: 9 }), fault({ kind: "deny_scope", remaining: null, scope: "read:billing_entitlements" })],
      op: "readLimit",
      fate: { fate: "rate_limited", resetSeconds: 9 },
      updates: [{ kind: "rate_limit", delete: true }],
    },
    {
      name: "a denied scope refuses only the calls that need it",
      faults: [fault({ kind: "deny_scope", remaining: null, scope: "create:meter_usage" })],
      op: "readLimit",
      fate: { fate: "proceed", driftBy: 0 },
      updates: [],
    },
    {
      name: "a denied scope refuses the call that needs it",
      faults: [fault({ kind: "deny_scope", remaining: null, scope: "create:meter_usage" })],
      op: "setUsage",
      fate: { fate: "not_allowed", scope: "create:meter_usage" },
      updates: [],
    },
    { name: "fail_writes leaves reads alone", faults: [fault({ kind: "fail_writes", remaining: 2 })], op: "readUsage", fate: { fate: "proceed", driftBy: 0 }, updates: [] },
    {
      name: "fail_writes fails a write and counts down; drift waits for a write that proceeds",
      faults: [fault({ kind: "fail_writes", remaining: 2 }), fault({ kind: "drift", amount: 7 })],
      op: "setUsage",
      fate: { fate: "fail" },
      updates: [{ kind: "fail_writes", remaining: 1 }],
    },
    {
      name: "drift moves a proceeding write and is consumed",
      faults: [fault({ kind: "drift", amount: -3 })],
      op: "setUsage",
      fate: { fate: "proceed", driftBy: -3 },
      updates: [{ kind: "drift", delete: true }],
    },
  ];
  test.each(cases)("$name", ({ faults, op, fate, updates }) => {
    expect(decideCall(faults, op)).toEqual({ fate, updates });
  });
});

describe("meter writes", () => {
  test.each([
    [0, "absolute", 500, 500],
    [500, "absolute", 500, 500],
    [500, "absolute", 420, 420],
    [500, "delta", 1, 501],
    [500, "delta", -2, 498],
  ] as const)("total %i, %s %i → %i", (total, kind, value, expected) => {
    expect(applyMeterWrite(total, kind, value)).toBe(expected);
  });
});

describe("cycles", () => {
  test("a period start names its cycle by the month it starts in", () => {
    expect(cycleNameOf(Date.UTC(2026, 9, 20, 15, 29))).toBe("2026-10");
    expect(cycleNameOf(Date.UTC(2026, 11, 28))).toBe("2026-12");
  });
  test("a default anchor never falls after the 28th", () => {
    expect(new Date(defaultAnchorMs({ cycleAnchorMs: null, createdAtMs: Date.UTC(2026, 0, 31, 10) })).getUTCDate()).toBe(28);
    expect(defaultAnchorMs({ cycleAnchorMs: null, createdAtMs: Date.UTC(2026, 0, 5, 10) })).toBe(Date.UTC(2026, 0, 5));
    expect(defaultAnchorMs({ cycleAnchorMs: 123, createdAtMs: 0 })).toBe(123);
  });
});
