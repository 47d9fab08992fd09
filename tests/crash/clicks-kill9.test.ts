/**
 * 20,000 clicks at concurrency 100 against a real server process that is
 * killed with SIGKILL mid-run and started again on the same data folder:
 * every click that received a 302 is in the ledger (its x-click-key is
 * there), and one reporter run afterwards brings the stand-in's meter to the
 * ledger total. The server is scripts/lib/meter-server.ts: the same route
 * handlers as the Next.js app, on node:http.
 */
import Database from "better-sqlite3";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import * as accounts from "../../lib/accounts/scripts";
import { SqliteEngine } from "../../lib/engine/sqlite/engine";
import * as links from "../../lib/links/scripts";
import * as standin from "../../lib/standin/scripts";
import { cycleOf } from "../../lib/usage/cycle";
import { tempDataDir } from "../contract/engines";

const CLICKS = 20_000;
const CONCURRENCY = 100;
const KILL_AFTER_REDIRECTS = 8_000;

interface Server {
  child: ChildProcess;
  url: string;
  exited: Promise<void>;
}

async function startServer(dataDir: string): Promise<Server> {
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve("scripts/lib/meter-server.ts"), "0"], {
    env: { ...process.env, TOLLBOOTH_DATA_DIR: dataDir, TOLLBOOTH_SCHEDULER: "off" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start within 60 s:\n${output}`)), 60_000);
    child.stdout!.on("data", (d: Buffer) => {
      output += d.toString();
      const match = /listening (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once("exit", (code) => reject(new Error(`the server exited (${code}):\n${output}`)));
  });
  return { child, url: `http://127.0.0.1:${port}`, exited };
}

describe("clicks survive kill -9", () => {
  test("every click that got a 302 is in the ledger after SIGKILL and a restart; the reporter brings the meter to the ledger total", async () => {
    const dataDir = tempDataDir();
    const setup = new SqliteEngine({ dataDir });
    const account = await setup.run(accounts.create, { name: "Crash Co" });
    const link = await setup.run(links.create, { accountId: account.id, destination: "https://example.com/landing" });
    await setup.close();

    let server = await startServer(dataDir);
    let up: Promise<void> = Promise.resolve();
    const redirectedKeys: string[] = [];
    let sent = 0;
    let failed = 0;
    let killed = false;
    let restart: Promise<void> | null = null;

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
          server.child.kill("SIGKILL");
          restart = (async () => {
            await server.exited;
            server = await startServer(dataDir);
          })();
          up = restart;
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(killed).toBe(true);
    expect(redirectedKeys.length).toBeGreaterThan(KILL_AFTER_REDIRECTS);
    expect(redirectedKeys.length + failed).toBe(CLICKS);

    // The reporter runs once on the restarted server and sends the ledger total to the stand-in.
    const token = fs.readFileSync(path.join(dataDir, "operator-token"), "utf8").trim();
    const report = await fetch(`${server.url}/api/v1/meter/report`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    expect(report.status).toBe(200);
    server.child.kill("SIGTERM");
    await server.exited;

    const raw = new Database(path.join(dataDir, "tollbooth.db"), { readonly: true });
    expect(raw.pragma("integrity_check", { simple: true })).toBe("ok");
    const stored = new Set(raw.prepare("SELECT key FROM usage_ledger WHERE source = 'click'").pluck().all() as string[]);
    raw.close();
    const lost = redirectedKeys.filter((key) => !stored.has(key));
    expect(lost).toEqual([]);
    // Clicks in flight at the kill may be stored without their 302 arriving; never the other way round.
    expect(stored.size).toBeGreaterThanOrEqual(redirectedKeys.length);

    const after = new SqliteEngine({ dataDir });
    const cycle = cycleOf(Date.now(), null).name;
    const meter = await after.run(standin.meterRecords, { accountId: account.id, featureCode: "clicks", cycle, limit: 1 });
    await after.close();
    expect(meter.total).toBe(stored.size);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 180_000);
});
