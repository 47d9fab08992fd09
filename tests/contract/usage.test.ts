import { beforeEach, describe, expect, test } from "vitest";
import * as accounts from "../../lib/accounts/scripts";
import type { Engine } from "../../lib/engine/types";
import * as usage from "../../lib/usage/scripts";
import { engines, useEngine } from "./engines";

describe.each(engines)("usage ledger on %s", (_name, make) => {
  const current = useEngine(make);
  let engine: Engine;
  let accountId: string;
  beforeEach(async () => {
    engine = current();
    accountId = (await engine.run(accounts.create, { name: "Ledger Co" })).id;
  });

  const click = (key: string, cycle = "2026-10") => ({ key, accountId, feature: "clicks", cycle, units: 1, source: "click" as const });

  test("a key counts once however often it is retried", async () => {
    const first = await engine.run(usage.record, click("click_a"));
    const again = await engine.run(usage.record, click("click_a"));
    expect(first.recorded).toBe(true);
    expect(again.recorded).toBe(false);
    expect(again.entry).toEqual(first.entry);
    expect(await engine.run(usage.total, { accountId, feature: "clicks", cycle: "2026-10" })).toEqual({ units: 1, marked: true });
  });

  test("the sharded counter equals the sum of the ledger rows, per cycle", async () => {
    for (let i = 0; i < 150; i++) await engine.run(usage.record, click(`k${i}`));
    for (let i = 0; i < 7; i++) await engine.run(usage.record, click(`n${i}`, "2026-11"));
    await engine.run(usage.record, { ...click("corr1"), units: -3, source: "correction", reason: "bot clicks", ref: "k1" });
    expect((await engine.run(usage.total, { accountId, feature: "clicks", cycle: "2026-10" })).units).toBe(147);
    expect((await engine.run(usage.total, { accountId, feature: "clicks", cycle: "2026-11" })).units).toBe(7);
    expect((await engine.run(usage.total, { accountId, feature: "tokens", cycle: "2026-10" })).units).toBe(0);
  });

  test("a cycle is marked once, and an untouched cycle is not marked", async () => {
    await engine.run(usage.record, click("m1"));
    await engine.run(usage.record, click("m2"));
    expect((await engine.run(usage.total, { accountId, feature: "clicks", cycle: "2026-10" })).marked).toBe(true);
    expect((await engine.run(usage.total, { accountId, feature: "clicks", cycle: "2026-09" })).marked).toBe(false);
  });

  test("negative units are refused unless the row is a correction, and nothing is written", async () => {
    await expect(engine.run(usage.record, { ...click("neg"), units: -1 })).rejects.toMatchObject({ code: "invalid_input" });
    await expect(engine.run(usage.record, { ...click("frac"), units: 1.5 })).rejects.toMatchObject({ code: "invalid_input" });
    expect(await engine.run(usage.total, { accountId, feature: "clicks", cycle: "2026-10" })).toEqual({ units: 0, marked: false });
  });
});
