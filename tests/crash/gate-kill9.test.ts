/**
 * The gate survives kill -9 (Part A). Real processes:
 *  - the production server bundle (tests/crash/server-bundle.ts: server/main.ts built by scripts/build-server.mjs, the
 *    code `npm start` runs; with TOLLBOOTH_PAGES=off, because the API is what is under test),
 *  - the load client (scripts/load.mjs): 2,000 jobs over 4 fresh accounts at concurrency 50, each reserve → 3
 *    charges → settle, recording every job it saw admitted the moment it saw it.
 * Mid-run the server gets SIGKILL. Workers whose server vanished give up after 1.5 s (their holds are left for
 * the sweeper); the server restarts on the same data folder and port, and the rest of the run completes.
 * The lease is 3 s and the sweeper runs every 0.5 s here (TOLLBOOTH_GATE_LEASE_MS and
 * TOLLBOOTH_GATE_SWEEP_INTERVAL_MS), so "a wait past the lease" takes seconds, not two minutes.
 *
 * Then, from the database file itself: nothing held anywhere, every budget's used equals the sum of its jobs'
 * charges and the usage ledger, and stays within the limit; every job the client saw admitted exists and is
 * settled, with exactly one ledger row.
 */
import Database from "better-sqlite3";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { crashTestServer } from "./server-bundle";

const root = path.resolve(__dirname, "../..");
const JOBS = 2_000;
const ACCOUNTS = 4;
const LIMIT = 400_000; // 500 jobs of 1,000 per account: some are refused, so the limit is tested too
const KILL_AFTER_ADMITTED = 700;

const crashServer = crashTestServer();
const dataDir = crashServer.dataDir;

// The lease is 3 s and the sweeper runs every 0.5 s, so "a wait past the lease" takes seconds.
const startServer = (port?: number) => crashServer.start({ port, env: { TOLLBOOTH_GATE_LEASE_MS: "3000", TOLLBOOTH_GATE_SWEEP_INTERVAL_MS: "500" } });

describe("the gate under kill -9", () => {
  test("2,000 jobs, 4 accounts, concurrency 50, SIGKILL mid-run, restart, lease passes: nothing held, usage exact and within the limit", async () => {
    let server = await startServer();
    const port = server.port;
    const token = fs.readFileSync(path.join(dataDir, "operator-token"), "utf8").trim();

    const record = path.join(dataDir, "admitted.jsonl");
    let loadOutput = "";
    const load = spawn(
      process.execPath,
      [
        path.join(root, "scripts/load.mjs"),
        ...["--jobs", String(JOBS), "--accounts", String(ACCOUNTS), "--concurrency", "50", "--estimate", "1000", "--limit", String(LIMIT)],
        ...["--rate", "1000000", "--key-rate", "100000", "--retry-for", "1500", "--record", record, "--json", "--url", `http://127.0.0.1:${port}`, "--token", token],
      ],
      { cwd: root, stdio: ["ignore", "pipe", "pipe"] },
    );
    load.stdout!.on("data", (d: Buffer) => (loadOutput += d.toString()));
    load.stderr!.on("data", (d: Buffer) => (loadOutput += d.toString()));
    const loadExit = new Promise<number | null>((resolve) => load.once("exit", resolve));

    // Kill the server once enough jobs are admitted that many are mid-flight.
    const admittedSoFar = () => (fs.existsSync(record) ? fs.readFileSync(record, "utf8").split("\n").filter(Boolean).length : 0);
    const deadline = Date.now() + 120_000;
    while (admittedSoFar() < KILL_AFTER_ADMITTED) {
      if (Date.now() > deadline || load.exitCode !== null) throw new Error(`the run ended before the kill:\n${loadOutput}\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    await server.kill();
    const admittedAtKill = admittedSoFar();
    await new Promise((r) => setTimeout(r, 2_000)); // workers in flight give up (retry-for 1.5 s)
    server = await startServer(port);

    await loadExit;
    const summary = JSON.parse(loadOutput.trim().split("\n").filter((l) => l.startsWith("{")).at(-1)!) as { started: number; refused: number; failed: number; abandoned: number; rateLimited: number; unavailable: number };
    // Every job is accounted for once: admitted, refused, or failed before it was admitted.
    expect(summary.started + summary.refused + summary.rateLimited + summary.unavailable + (summary.failed - summary.abandoned)).toBe(JOBS);
    expect(summary.failed, "some workers lost their server mid-job").toBeGreaterThan(0);
    expect(admittedSoFar()).toBeGreaterThan(admittedAtKill); // the run went on after the restart

    // Wait past the lease: the sweeper settles the abandoned jobs.
    const reader = () => new Database(path.join(dataDir, "tollbooth.db"), { readonly: true });
    const heldNow = () => {
      const db = reader();
      try {
        return (db.prepare("SELECT COALESCE(SUM(held_units), 0) AS held FROM budgets").get() as { held: number }).held;
      } finally {
        db.close();
      }
    };
    const sweepDeadline = Date.now() + 30_000;
    while (heldNow() > 0 && Date.now() < sweepDeadline) await new Promise((r) => setTimeout(r, 250));
    await server.stop();

    const db = reader();
    try {
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      const budgets = db.prepare("SELECT account_id, used_units, held_units, limit_units FROM budgets").all() as { account_id: string; used_units: number; held_units: number; limit_units: number }[];
      expect(budgets).toHaveLength(ACCOUNTS);
      for (const b of budgets) {
        expect(b.held_units, `${b.account_id} still holds`).toBe(0);
        const charged = (db.prepare("SELECT COALESCE(SUM(charged_units), 0) AS c FROM jobs WHERE account_id = ?").get(b.account_id) as { c: number }).c;
        const ledger = (db.prepare("SELECT COALESCE(SUM(units), 0) AS u FROM usage_ledger WHERE account_id = ? AND source = 'job'").get(b.account_id) as { u: number }).u;
        expect(b.used_units).toBe(charged);
        expect(ledger).toBe(b.used_units);
        expect(b.used_units).toBeLessThanOrEqual(LIMIT);
      }
      expect((db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE status = 'running'").get() as { n: number }).n).toBe(0);
      const expired = (db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE status = 'expired'").get() as { n: number }).n;
      expect(expired, "the sweeper settled the jobs whose workers gave up").toBeGreaterThan(0);

      const seen = fs.readFileSync(record, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as { id: string });
      const exists = db.prepare("SELECT status, charged_units FROM jobs WHERE id = ?");
      const ledgerRows = db.prepare("SELECT COUNT(*) AS n FROM usage_ledger WHERE key = ?");
      for (const { id } of seen) {
        const row = exists.get(id) as { status: string; charged_units: number | null } | undefined;
        expect(row, `job ${id} the client saw admitted is missing`).toBeDefined();
        expect(row!.status).not.toBe("running");
        expect((ledgerRows.get(id) as { n: number }).n).toBe(1);
      }
      const jobs = (db.prepare("SELECT COUNT(*) AS n FROM jobs").get() as { n: number }).n;
      expect(jobs).toBeGreaterThanOrEqual(seen.length);
    } finally {
      db.close();
    }
  }, 240_000);
});
