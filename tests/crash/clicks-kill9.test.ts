/**
 * 20,000 clicks at concurrency 100 against the production server (tests/crash/server-bundle.ts: the bundle
 * `npm start` runs, /r/<code> on its direct path) that is killed with SIGKILL mid-run and started again on the same
 * data folder and port: every click that received a 302 is in the ledger (its x-click-key is there), and one
 * reporter run afterwards (the orchestration the server schedules every minute) brings the stand-in's meter to the
 * ledger total.
 */
import Database from "better-sqlite3";
import path from "node:path";
import { describe, expect, test } from "vitest";
import * as accounts from "../../lib/accounts/scripts";
import { SqliteEngine } from "../../lib/engine/sqlite/engine";
import * as links from "../../lib/links/scripts";
import { runReporter } from "../../lib/meter/reporter";
import { orchestrationContext } from "../../lib/runtime";
import { StandinProvider } from "../../lib/standin/provider";
import * as standin from "../../lib/standin/scripts";
import { cycleOf } from "../../lib/usage/cycle";
import { crashTestServer } from "./server-bundle";

const CLICKS = 20_000;
const CONCURRENCY = 100;
const KILL_AFTER_REDIRECTS = 8_000;

const crashServer = crashTestServer();
const dataDir = crashServer.dataDir;

describe("clicks survive kill -9", () => {
  test("every click that got a 302 is in the ledger after SIGKILL and a restart; the reporter brings the meter to the ledger total", async () => {
    const setup = new SqliteEngine({ dataDir });
    const account = await setup.run(accounts.create, { name: "Crash Co" });
    const link = await setup.run(links.create, { accountId: account.id, destination: "https://example.com/landing" });
    await setup.close();

    const env = { TOLLBOOTH_SCHEDULER: "off" };
    let server = await crashServer.start({ env });
    let up: Promise<void> = Promise.resolve();
    const redirectedKeys: string[] = [];
    let sent = 0;
    let failed = 0;
    let killed = false;

    const worker = async () => {
      while (sent < CLICKS) {
        await up;
        sent++;
        try {
          const response = await fetch(`${server.url}/r/${link.code}`, { redirect: "manual" });
          await response.arrayBuffer();
          if (response.status === 302) redirectedKeys.push(response.headers.get("x-click-key")!);
          else failed++;
        } catch {
          failed++; // the connection died with the server: no 302, so no promise was made
        }
        if (!killed && redirectedKeys.length >= KILL_AFTER_REDIRECTS) {
          killed = true;
          const port = server.port;
          up = (async () => {
            await server.kill();
            server = await crashServer.start({ port, env });
          })();
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(killed).toBe(true);
    expect(redirectedKeys.length).toBeGreaterThan(KILL_AFTER_REDIRECTS);
    expect(redirectedKeys.length + failed).toBe(CLICKS);
    await server.stop();

    const raw = new Database(path.join(dataDir, "tollbooth.db"), { readonly: true });
    expect(raw.pragma("integrity_check", { simple: true })).toBe("ok");
    const stored = new Set(raw.prepare("SELECT key FROM usage_ledger WHERE source = 'click'").pluck().all() as string[]);
    raw.close();
    const lost = redirectedKeys.filter((key) => !stored.has(key));
    expect(lost).toEqual([]);
    // Clicks in flight at the kill may be stored without their 302 arriving; never the other way round.
    expect(stored.size).toBeGreaterThanOrEqual(redirectedKeys.length);

    // One reporter run over the data folder sends the ledger total to the stand-in.
    const after = new SqliteEngine({ dataDir });
    try {
      const report = await runReporter(orchestrationContext(after, new StandinProvider(after)));
      expect(report).toMatchObject({ written: 1, failed: 0 });
      const cycle = cycleOf(Date.now(), null).name;
      const meter = await after.run(standin.meterRecords, { accountId: account.id, featureCode: "clicks", cycle, limit: 1 });
      expect(meter.total).toBe(stored.size);
    } finally {
      await after.close();
    }
  }, 180_000);
});
