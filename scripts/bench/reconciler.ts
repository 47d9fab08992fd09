/**
 * The reconciler over one cycle of 1,000,000 ledger rows (embedded engine, WAL +
 * synchronous=FULL): how long one account's reconcile takes and how much the
 * process's memory grows while it runs. It streams the ledger in pages of 4,000
 * rows, so memory should not grow with the cycle.
 * Targets (issue 4): under 30 s, and under 100 MB of memory growth.
 *
 *   npx tsx scripts/bench/reconciler.ts [--rows 1000000]
 * The rows are written straight into the ledger tables in one transaction (a fast setup, not a
 * measure of anything); the counter and the cycle's meter row are made to match.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as accounts from "../../lib/accounts/scripts";
import { SqliteEngine } from "../../lib/engine/sqlite/engine";
import { runReconciler } from "../../lib/meter/reconciler";
import { StandinProvider } from "../../lib/standin/provider";
import { cycleOf } from "../../lib/usage/cycle";
import { fmt } from "../lib/stats";

const argv = process.argv.slice(2);
const rowsArg = argv.indexOf("--rows");
const rows = rowsArg >= 0 ? Number(argv[rowsArg + 1]) : 1_000_000;
const mb = (bytes: number) => bytes / 1024 / 1024;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tollbooth-bench-reconciler-"));
try {
  const engine = new SqliteEngine({ dataDir });
  const account = await engine.run(accounts.create, { name: "Million" });
  const nowMs = Date.now();
  const cycle = cycleOf(nowMs, null).name;

  const setupStarted = performance.now();
  const db = engine.connections.write;
  const insert = db.prepare(
    "INSERT INTO usage_ledger (key, account_id, feature, cycle, units, at_ms, source, ref, reason) VALUES (?, ?, 'clicks', ?, 1, ?, 'click', 'bench', NULL)",
  );
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(`bench-${i}`, account.id, cycle, nowMs);
    db.prepare("INSERT INTO usage_counters (account_id, feature, cycle, shard, units) VALUES (?, 'clicks', ?, 0, ?)").run(account.id, cycle, rows);
    db.prepare("INSERT INTO meter_cycles (account_id, feature, cycle, first_usage_at_ms, lease_until_ms) VALUES (?, 'clicks', ?, ?, 0)").run(account.id, cycle, nowMs);
  })();
  console.log(`Reconciler benchmark: ${rows.toLocaleString("en")} ledger rows in one cycle (setup ${fmt((performance.now() - setupStarted) / 1000, 1)} s), ${os.cpus().length} cores, node ${process.version}`);

  const provider = new StandinProvider(engine);
  const ctx = { run: engine.run.bind(engine), provider, nowMs: Date.now, log: () => {} };
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 25);
  const started = performance.now();
  const summary = await runReconciler(ctx, { trigger: "on_demand", accountIds: [account.id] });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  await engine.close();

  const finding = summary.findings[0]?.evidence;
  console.log("");
  console.log(`  ledger total          ${finding?.ledgerUnits.toLocaleString("en")} (counter ${finding?.counterUnits.toLocaleString("en")})`);
  console.log(`  verdict               ${finding?.verdict}, ${finding?.outcome}`);
  console.log(`  time                  ${fmt(seconds, 2)} s  (target < 30 s)`);
  console.log(`  rows per second       ${Math.round(rows / seconds).toLocaleString("en")}`);
  console.log(`  memory growth (RSS)   ${fmt(mb(peakRss - before.rss), 1)} MB  (target < 100 MB)`);
  console.log(`  memory growth (heap)  ${fmt(mb(peakHeap - before.heapUsed), 1)} MB`);
  if (summary.error) console.log(`  run error: ${summary.error}`);
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
