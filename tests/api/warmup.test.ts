/**
 * The production server's warm-up (server/warmup.ts): it drives the hot routes over real loopback HTTP on a throwaway
 * runtime, every request answered as expected (it throws otherwise), and leaves nothing behind: no runtime, no
 * folder, no row in the real data folder.
 */
import fs from "node:fs";
import os from "node:os";
import { afterAll, describe, expect, test } from "vitest";
import * as accounts from "../../lib/accounts/scripts";
import { getRuntime } from "../../lib/runtime";
import { warmUp } from "../../server/warmup";
import { tempDataDir } from "../contract/engines";

const RUNTIME_KEY = Symbol.for("tollbooth.runtime");
const realDir = tempDataDir();
Object.assign(process.env, { TOLLBOOTH_DATA_DIR: realDir, TOLLBOOTH_SCHEDULER: "off" });
const scratchDirs = () => fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith("tollbooth-warmup-"));

afterAll(async () => {
  await getRuntime().engine.close();
});

describe("the warm-up before the port opens", () => {
  test("job lifecycles, budgets, a link and its clicks over HTTP on a scratch runtime; then no runtime, no scratch folder, nothing in the real data folder", async () => {
    const before = new Set(scratchDirs());
    const report = await warmUp();
    // An account, a key, 400 lifecycles of 5 requests, 20 job and 20 budget reads, a link, 600 clicks and its stats.
    expect(report.requests).toBe(2 + 400 * 5 + 40 + 1 + 600 + 1);
    expect(report.ms).toBeGreaterThan(0);
    expect((globalThis as Record<symbol, unknown>)[RUNTIME_KEY]).toBeUndefined();
    expect(scratchDirs().filter((name) => !before.has(name))).toEqual([]);
    expect(fs.readdirSync(realDir)).toEqual([]);
    // The real runtime made afterwards starts empty.
    const { accounts: found } = await getRuntime().engine.run(accounts.list, {});
    expect(found).toEqual([]);
  });
});
