import { describe, expect, test } from "vitest";
import { meterTotalFromRead } from "../../lib/provider/kinde/meter-read";

const current = { featureCode: "clicks", cycle: "2026-10", currentCycle: "2026-10", askedAllCycles: false };
const previous = { featureCode: "clicks", cycle: "2026-09", currentCycle: "2026-10", askedAllCycles: true };

describe("reading Kinde's meter back (shape unpublished: accept the plausible, refuse the rest)", () => {
  test.each([
    ["records fold in creation order: absolute replaces, delta adds", [{ meter_usage: [
      { billing_feature_code: "clicks", meter_value: "1", meter_type_code: "delta", created_on: "2026-10-21T00:00:02Z" },
      { billing_feature_code: "clicks", meter_value: "500", meter_type_code: "absolute", created_on: "2026-10-21T00:00:01Z" },
      { billing_feature_code: "tokens", meter_value: "9", created_on: "2026-10-21T00:00:03Z" },
    ] }], current, 501],
    ["a record without a type is absolute (Kinde's default per Part B)", [{ records: [{ meter_value: "7" }, { meter_value: "3" }] }], current, 3],
    ["no records for the cycle is the provider saying 0", [{ meter_usage: [] }], current, 0],
    ["a total item", [{ data: [{ feature_code: "clicks", total: "8457", period_start: "2026-10-20T15:29:00Z" }] }], current, 8457],
    ["a bare total answers the current cycle", [{ total: 42 }], current, 42],
    ["all cycles: only the asked cycle's records count", [{ meter_usage: [
      { billing_feature_code: "clicks", meter_value: "100", cycle_start: "2026-09-20T15:29:00Z" },
      { billing_feature_code: "clicks", meter_value: "130", cycle_start: "2026-10-20T15:29:00Z" },
    ] }], previous, 100],
    ["records over two pages", [{ meter_usage: [{ meter_value: "1", meter_type_code: "delta" }] }, { meter_usage: [{ meter_value: "2", meter_type_code: "delta" }] }], current, 3],
  ] as const)("%s", (_name, pages, want, total) => {
    expect(meterTotalFromRead(pages, want)).toEqual({ ok: true, total });
  });

  test.each([
    ["neither records nor a total", [{ message: "Success" }], current],
    ["a bare total for a past cycle", [{ total: 5 }], previous],
    ["records that do not say their cycle, when every cycle was asked for", [{ meter_usage: [{ meter_value: "1" }] }], previous],
    ["a value that is not a whole number", [{ meter_usage: [{ meter_value: "1.5" }] }], current],
    ["an unknown meter type", [{ meter_usage: [{ meter_value: "1", meter_type_code: "gauge" }] }], current],
    ["two totals for one cycle", [{ meter_usage: [{ total: 1 }, { total: 2 }] }], current],
    ["totals mixed with records", [{ meter_usage: [{ total: 1 }, { meter_value: "2" }] }], current],
    ["a period start that is not a date", [{ meter_usage: [{ meter_value: "1", cycle_start: "soon" }] }], current],
  ] as const)("unreadable: %s", (_name, pages, want) => {
    expect(meterTotalFromRead(pages, want)).toMatchObject({ ok: false, reason: expect.any(String) });
  });
});
