/**
 * npm run bench:engine — the embedded engine's throughput and latency for a
 * small script (accounts.create: one indexed read, one insert) at concurrency
 * 1, 16 and 256, in three modes, all durable (nobody hears "committed" before
 * the WAL is fsynced):
 *  - group commit, background flush (the default): COMMIT without fsync, an
 *    fdatasync of the WAL on the thread pool before the answers;
 *  - group commit, inline fsync: SQLite's synchronous=FULL inside COMMIT;
 *  - one transaction per script with inline fsync (the baseline).
 *
 * Each cell is a closed loop: `concurrency` callers each issue the next
 * script as soon as the last one resolved, for --seconds (default 3).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as accounts from "../../lib/accounts/scripts";
import { SqliteEngine } from "../../lib/engine/sqlite/engine";
import { fmt, summarize, table } from "../lib/stats";

const seconds = Number(process.argv.find((a) => a.startsWith("--seconds="))?.split("=")[1] ?? 3);
const concurrencies = [1, 16, 256];

type Mode = "group commit" | "group commit, inline fsync" | "tx per script";

async function cell(mode: Mode, concurrency: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tollbooth-bench-"));
  const engine = new SqliteEngine({ dataDir, groupCommit: mode !== "tx per script", flush: mode === "group commit" ? "background" : "inline" });
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  let n = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const start = performance.now();
      await engine.run(accounts.create, { name: `bench-${n++}` });
      latencies.push(performance.now() - start);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedS = (performance.now() - started) / 1000;
  const stats = engine.writerStats();
  await engine.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  const s = summarize(latencies);
  return {
    mode,
    concurrency,
    "scripts/s": Math.round(latencies.length / elapsedS),
    "p50 ms": fmt(s.p50, 3),
    "p99 ms": fmt(s.p99, 3),
    "scripts/commit": fmt(stats.scripts / stats.batches, 1),
  };
}

const rows: Awaited<ReturnType<typeof cell>>[] = [];
console.log(`Engine benchmark: accounts.create, WAL, every answer after an fsync, ${seconds}s per cell, ${os.cpus().length} cores, node ${process.version}`);
for (const concurrency of concurrencies) {
  for (const mode of ["group commit", "group commit, inline fsync", "tx per script"] as const) {
    const row = await cell(mode, concurrency);
    rows.push(row);
    console.log(`  done: ${row.mode} @ ${concurrency}`);
  }
}
console.log("");
console.log(table(rows));
const at256 = (mode: string) => rows.find((r) => r.mode === mode && r.concurrency === 256)!["scripts/s"];
const ratio = at256("group commit") / at256("tx per script");
console.log("");
console.log(`At concurrency 256: group commit ${at256("group commit")} scripts/s, ${fmt(ratio, 1)}x one transaction per script (targets: >= 20000/s and >= 10x).`);
