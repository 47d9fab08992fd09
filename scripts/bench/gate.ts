/**
 * npm run bench gate — the gate's data path against this machine's ceiling, all measured in one run:
 *
 *  1. the ceiling: a bare node:http server doing one SQLite write per request (scripts/bench/lib/bare-server.mjs),
 *     once with synchronous=FULL (a fsync per request: as durable as Tollbooth) and once with NORMAL (no fsync
 *     per commit: what the CPU can do), driven by the same load client with the same requests per lifecycle;
 *  2. Tollbooth's production server (`npm start`: /api/v1 served directly by the route handlers);
 *  3. the same handlers through Next.js's route handlers (`next start`), to show why the direct path exists;
 *  4. the article's load run (120 jobs of 1,000 against 100,000 at concurrency 50) on the production server;
 *  5. admission cost: reserve p50 with 10 jobs running and with 10,000 running.
 *
 * Each server gets the machine to itself in turn; the load client (scripts/load.mjs, a separate process) is the
 * same for all. Besides wall-clock figures it prints each server's CPU time per lifecycle (from /proc), which a
 * busy shared machine disturbs far less than throughput.
 *
 *   npx tsx scripts/bench/gate.ts [--lifecycles 10000] [--accounts 20] [--concurrency 50] [--running 10000] [--skip-next]
 * Needs a production build (`npm run build`); builds one if there is none.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { freePort } from "../lib/net";
import { fmt, summarize, table } from "../lib/stats";

const root = path.resolve(import.meta.dirname, "../..");
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const LIFECYCLES = arg("lifecycles", 10_000);
const ACCOUNTS = arg("accounts", 20);
const CONCURRENCY = arg("concurrency", 50);
const RUNNING = arg("running", 10_000);
const SKIP_NEXT = process.argv.includes("--skip-next");
const MEASURED_RESERVES = 300;

/** CPU seconds (user + system) of a process and its descendants, from /proc; null off Linux. */
function treeCpuSeconds(pid: number): number | null {
  try {
    const stats = fs
      .readdirSync("/proc")
      .filter((d) => /^\d+$/.test(d))
      .map((d) => {
        try {
          const text = fs.readFileSync(`/proc/${d}/stat`, "utf8");
          const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
          return { pid: Number(d), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
        } catch {
          return null;
        }
      })
      .filter((s) => s !== null);
    const tree = new Set([pid]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const s of stats) {
        if (!tree.has(s.pid) && tree.has(s.ppid)) {
          tree.add(s.pid);
          grew = true;
        }
      }
    }
    const ticksPerSecond = Number(spawnSync("getconf", ["CLK_TCK"]).stdout.toString().trim()) || 100;
    return stats.filter((s) => tree.has(s.pid)).reduce((sum, s) => sum + s.ticks, 0) / ticksPerSecond;
  } catch {
    return null;
  }
}

interface Server {
  name: string;
  url: string;
  dataDir: string;
  pid: number;
  stop(): Promise<void>;
}

async function waitFor(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${output()}`);
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`no answer from ${url} within 60 s:\n${output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function start(name: string, command: string[], env: Record<string, string>, readyPath: string): Promise<Server> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tollbooth-bench-gate-"));
  let output = "";
  const child = spawn(process.execPath, command.map((c) => c.replace("$PORT", String(port)).replace("$DATA", dataDir)), {
    cwd: root,
    env: { ...process.env, TOLLBOOTH_DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}${readyPath}`, child, () => output);
  return {
    name,
    url,
    dataDir,
    pid: child.pid!,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface LoadSummary {
  started: number;
  refused: number;
  failed: number;
  spent: number;
  held: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  rateLimited: number;
  reserveMs: { p50: number; p95: number; p99: number };
}

function load(server: Server, args: string[], token: string): LoadSummary {
  const result = spawnSync(process.execPath, [path.join(root, "scripts/load.mjs"), ...args, "--url", server.url, "--token", token, "--json"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const line = result.stdout.trim().split("\n").at(-1) ?? "";
  try {
    return JSON.parse(line) as LoadSummary;
  } catch {
    throw new Error(`the load client failed (${result.status}):\n${result.stderr}\n${result.stdout}`);
  }
}

function operatorToken(server: Server): string {
  const file = path.join(server.dataDir, "operator-token");
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim() : "bare";
}

/** Lifecycles through one server: wall clock and the server's CPU. */
function lifecycles(server: Server, token: string) {
  const cpuBefore = treeCpuSeconds(server.pid);
  const s = load(server, ["--jobs", String(LIFECYCLES), "--accounts", String(ACCOUNTS), "--concurrency", String(CONCURRENCY), "--estimate", "1000", "--limit", String(10 ** 12), "--rate", "1000000", "--key-rate", "100000"], token);
  const cpuAfter = treeCpuSeconds(server.pid);
  const cpuSeconds = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
  if (s.failed > 0 || s.rateLimited > 0) console.log(`  note: ${server.name}: ${s.failed} failed, ${s.rateLimited} rate limited`);
  return {
    server: server.name,
    "lifecycles/s": Math.round(LIFECYCLES / s.seconds),
    "requests/s": s.requestsPerSecond,
    "reserve p50 ms": fmt(s.reserveMs.p50, 1),
    "reserve p99 ms": fmt(s.reserveMs.p99, 1),
    "server CPU ms/lifecycle": cpuSeconds === null ? "-" : fmt((cpuSeconds * 1000) / LIFECYCLES, 2),
    "lifecycles per server CPU-s": cpuSeconds === null ? "-" : String(Math.round(LIFECYCLES / cpuSeconds)),
  };
}

/** A keep-alive JSON client for the admission-cost measurement. */
function client(base: string, token: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const url = new URL(base);
  return {
    call(method: string, pathname: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
      return new Promise((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const request = http.request(
          { agent, host: url.hostname, port: url.port, method, path: pathname, headers: { authorization: `Bearer ${token}`, ...(payload ? { "content-type": "application/json" } : {}) } },
          (response) => {
            let text = "";
            response.on("data", (c) => (text += c));
            response.on("end", () => resolve({ status: response.statusCode!, body: text ? JSON.parse(text) : {} }));
          },
        );
        request.on("error", reject);
        request.end(payload);
      });
    },
    close: () => agent.destroy(),
  };
}

async function admissionCost(server: Server) {
  const operator = client(server.url, operatorToken(server));
  const opened = await operator.call("POST", "/api/v1/accounts", { name: "admission cost", limits: { tokens: null }, admissionsPerMinute: 1_000_000 });
  const accountId = (opened.body.account as { id: string }).id;
  // The first key may make 600 requests a minute; this measurement makes far more.
  const made = await operator.call("POST", `/api/v1/accounts/${accountId}/keys`, { ratePerMinute: 100_000 });
  operator.close();
  const key = (made.body.apiKey as { key: string }).key;
  const api = client(server.url, key);
  let n = 0;
  const reserve = () => api.call("POST", "/api/v1/jobs", { key: `k${n++}`, estimate: 1 });
  const measure = async () => {
    const latencies: number[] = [];
    for (let i = 0; i < MEASURED_RESERVES; i++) {
      const t0 = performance.now();
      const r = await reserve();
      latencies.push(performance.now() - t0);
      await api.call("POST", `/api/v1/jobs/${r.body.id as string}/settle`, { outcome: "completed" });
    }
    return summarize(latencies).p50;
  };
  const fill = async (count: number) => {
    let left = count;
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) await reserve();
    }));
  };
  await fill(10);
  await measure(); // warm-up
  const with10 = await measure();
  await fill(RUNNING - 10);
  const withMany = await measure();
  api.close();
  return { with10, withMany };
}

function ensureBuild(): void {
  const distDir = process.env.TOLLBOOTH_DIST_DIR ?? ".next";
  if (fs.existsSync(path.join(root, distDir, "BUILD_ID")) && fs.existsSync(path.join(root, "dist/server.mjs"))) return;
  console.log("No production build: running npm run build first …");
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) throw new Error("npm run build failed");
}

async function main() {
  ensureBuild();
  console.log(
    `Gate benchmark: ${LIFECYCLES} lifecycles (reserve, 3 charges, settle) over ${ACCOUNTS} accounts at concurrency ${CONCURRENCY}; ${os.cpus().length} cores, node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`,
  );
  const rows: ReturnType<typeof lifecycles>[] = [];
  for (const sync of ["FULL", "NORMAL"]) {
    const bare = await start(`bare node:http + SQLite (${sync})`, [path.join(root, "scripts/bench/lib/bare-server.mjs"), "$PORT", "$DATA", sync], {}, "/");
    rows.push(lifecycles(bare, "bare"));
    await bare.stop();
  }
  const serverEnv = { TOLLBOOTH_SCHEDULER: "on" };
  const production = await start("Tollbooth (npm start: /api/v1 direct)", [path.join(root, "dist/server.mjs"), "-p", "$PORT", "-H", "127.0.0.1"], serverEnv, "/api/health");
  rows.push(lifecycles(production, operatorToken(production)));
  if (!SKIP_NEXT) {
    const viaNext = await start("Tollbooth via Next.js route handlers (next start)", [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", "$PORT", "-H", "127.0.0.1"], serverEnv, "/api/health");
    rows.push(lifecycles(viaNext, operatorToken(viaNext)));
    await viaNext.stop();
  }
  console.log("");
  console.log(table(rows));
  const rate = (name: string) => Number(rows.find((r) => r.server.startsWith(name))?.["lifecycles/s"] ?? NaN);
  const ours = rate("Tollbooth (npm start");
  console.log("");
  console.log(`Production server: ${ours} lifecycles/s = ${fmt(ours / rate("bare node:http + SQLite (FULL)"), 2)}x the bare FULL ceiling, ${fmt(ours / rate("bare node:http + SQLite (NORMAL)"), 2)}x the bare NORMAL ceiling (target: >= 0.33x).`);

  const article = load(production, ["--jobs", "120", "--estimate", "1000", "--limit", "100000", "--concurrency", "50"], operatorToken(production));
  console.log("");
  console.log(
    `Article's load run (120 × 1,000 against 100,000, concurrency 50): ${article.started} started, ${article.refused} refused, ${article.failed} failed, ${article.spent} spent, ${article.held} held, ${fmt(article.seconds, 3)} s, reserve p50/p95/p99 ${fmt(article.reserveMs.p50, 1)}/${fmt(article.reserveMs.p95, 1)}/${fmt(article.reserveMs.p99, 1)} ms (targets: 100/20/0/100000/0, < 1 s, p99 < 100 ms).`,
  );

  const cost = await admissionCost(production);
  console.log("");
  console.log(
    `Admission cost: reserve p50 ${fmt(cost.with10, 2)} ms with 10 jobs running, ${fmt(cost.withMany, 2)} ms with ${RUNNING} running: ${fmt(cost.withMany / cost.with10, 2)}x (target: <= 1.5x).`,
  );
  await production.stop();
}

await main();
