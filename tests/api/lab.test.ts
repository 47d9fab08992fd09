/**
 * The Concurrency Lab's logic through the real runtime (engine, stand-in,
 * gate): the article's defaults must show 200,000 spent against 80,000.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { gateContext } from "../../lib/api/gate";
import { LAB_DEFAULTS, runLab } from "../../lib/gate/lab";
import * as gate from "../../lib/gate/scripts";
import { startApi, type ApiHarness } from "./harness";

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api.close();
});

describe("the Concurrency Lab", () => {
  test("defaults (5 × 40,000 against 100,000): the plain check spends 200,000, the hold 80,000", async () => {
    const { getRuntime } = await import("../../lib/runtime");
    const engine = getRuntime().engine;
    const result = await runLab(gateContext(), engine, LAB_DEFAULTS);
    expect(result.check).toMatchObject({ started: 5, refused: 0, spentUnits: 200_000, limitUnits: 100_000 });
    expect(result.hold).toMatchObject({ started: 2, refused: 3, spentUnits: 80_000 });
    expect(result.hold.jobs.filter((j) => !j.started).map((j) => j.reason)).toEqual(Array(3).fill("The job needs 40000 and 20000 is left."));
    expect(result.check.accountId).not.toBe(result.hold.accountId);
    // The hold side went through the real gate: its budget shows the settled usage and nothing held.
    const { budget } = await engine.run(gate.budget, { accountId: result.hold.accountId, feature: "tokens" });
    expect(budget).toMatchObject({ limitUnits: 100_000, usedUnits: 80_000, heldUnits: 0 });
  });

  test("other inputs: 3 × 10,000 against 25,000 — the check spends 30,000, the hold 20,000", async () => {
    const { getRuntime } = await import("../../lib/runtime");
    const result = await runLab(gateContext(), getRuntime().engine, { jobs: 3, estimate: 10_000, limit: 25_000 });
    expect([result.check.spentUnits, result.hold.spentUnits]).toEqual([30_000, 20_000]);
  });
});
