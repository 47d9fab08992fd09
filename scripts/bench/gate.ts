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
 * Each server gets the machine to itself in turn, in --rounds interleaved rounds (medians are reported: a shared
 * virtual machine's disk and CPU vary by ±20% from minute to minute); the load client (scripts/load.mjs, a separate process) is the
 * same for all. Besides wall-clock figures it prints each server's CPU time per lifecycle (from /proc), which a
 * busy shared machine disturbs far less than throughput.
 *
 *   npx tsx scripts/bench/gate.ts [--lifecycles 10000] [--accounts 20] [--concurrency 50] [--running 10000] [--rounds 3] [--skip-next]
 * Needs a production build (`npm run build`); builds one if there is none. Servers: scripts/bench/lib/servers.ts.
 */
import http from "node:http";
import os from "node:os";
import { fmt, summarize, table } from "../lib/stats";
import { bare, ensureBuild, nextStart, operatorToken, production, runLoad, startServer, withServerCpu, type ServerProcess } from "./lib/servers";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const LIFECYCLES = arg("lifecycles", 10_000);
const ACCOUNTS = arg("accounts", 20);
const CONCURRENCY = arg("concurrency", 50);
const RUNNING = arg("running", 10_000);
const SKIP_NEXT = process.argv.includes("--skip-next");
const ROUNDS = arg("rounds", 3);
const MEASURED_RESERVES = 300;

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

function load(server: ServerProcess, args: string[], token: string): LoadSummary {
  return runLoad<LoadSummary>([...args, "--url", server.url, "--token", token]);
}

/** Lifecycles through one server: wall clock and the server's CPU. */
async function lifecycles(server: ServerProcess, token: string) {
  const { result: s, cpuSeconds } = await withServerCpu(server, () => load(server, ["--jobs", String(LIFECYCLES), "--accounts", String(ACCOUNTS), "--concurrency", String(CONCURRENCY), "--estimate", "1000", "--limit", String(10 ** 12), "--rate", "1000000", "--key-rate", "100000"], token));
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

async function admissionCost(server: ServerProcess) {
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

async function main() {
  ensureBuild();
  console.log(
    `Gate benchmark: ${LIFECYCLES} lifecycles (reserve, 3 charges, settle) over ${ACCOUNTS} accounts at concurrency ${CONCURRENCY}; ${os.cpus().length} cores, node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`,
  );
  type Row = { round: number } & Awaited<ReturnType<typeof lifecycles>>;
  const rows: Row[] = [];
  const env = { env: { TOLLBOOTH_SCHEDULER: "on" } };
  const OURS = "Tollbooth (npm start: /api/v1 direct)";
  const CEILINGS = ["FULL", "NORMAL"] as const;
  let warm: ServerProcess | undefined;
  // Rounds interleave the servers, so a slow minute of a shared machine hits all of them; the figures are medians.
  for (let round = 1; round <= ROUNDS; round++) {
    for (const sync of CEILINGS) {
      const ceiling = await startServer(`bare node:http + SQLite (${sync})`, bare(sync));
      rows.push({ round, ...(await lifecycles(ceiling, "bare")) });
      await ceiling.stop();
    }
    const ours = await startServer(OURS, production(), env);
    rows.push({ round, ...(await lifecycles(ours, operatorToken(ours))) });
    if (round < ROUNDS) await ours.stop();
    else warm = ours;
  }
  if (!SKIP_NEXT) {
    const viaNext = await startServer("Tollbooth via Next.js route handlers (next start)", nextStart(), env);
    rows.push({ round: 1, ...(await lifecycles(viaNext, operatorToken(viaNext))) });
    await viaNext.stop();
  }
  console.log("");
  console.log(table(rows));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const rate = (name: string) => median(rows.filter((r) => r.server.startsWith(name)).map((r) => r["lifecycles/s"]));
  const ratio = (ceiling: string) => median(Array.from({ length: ROUNDS }, (_, i) => {
    const inRound = (name: string) => rows.find((r) => r.round === i + 1 && r.server.startsWith(name))!["lifecycles/s"];
    return inRound(OURS) / inRound(ceiling);
  }));
  const ourRate = rate(OURS);
  console.log("");
  console.log(
    `Production server, median of ${ROUNDS} round(s): ${ourRate} lifecycles/s (FULL ceiling ${rate("bare node:http + SQLite (FULL)")}, NORMAL ceiling ${rate("bare node:http + SQLite (NORMAL)")}); ` +
      `per-round ratio, median: ${fmt(ratio("bare node:http + SQLite (FULL)"), 2)}x the bare FULL ceiling, ${fmt(ratio("bare node:http + SQLite (NORMAL)"), 2)}x the bare NORMAL ceiling (target: >= 0.33x).`,
  );

  // The article's run twice: on a server started a moment ago (its first requests: JIT, connections, the fresh
  // account's first limit read), and on the server that has just run the lifecycles.
  const articleArgs = ["--jobs", "120", "--estimate", "1000", "--limit", "100000", "--concurrency", "50"];
  const cold = await startServer(OURS, production(), env);
  const coldRun = load(cold, articleArgs, operatorToken(cold));
  await cold.stop();
  const ours = warm!;
  const warmRun = load(ours, articleArgs, operatorToken(ours));
  console.log("");
  console.log("Article's load run (120 × 1,000 against 100,000, concurrency 50; targets: 100/20/0/100000/0, < 1 s, p99 < 100 ms):");
  for (const [label, run] of [["fresh server", coldRun], ["warm server ", warmRun]] as const) {
    console.log(
      `  ${label}: ${run.started} started, ${run.refused} refused, ${run.failed} failed, ${run.spent} spent, ${run.held} held, ${fmt(run.seconds, 3)} s, reserve p50/p95/p99 ${fmt(run.reserveMs.p50, 1)}/${fmt(run.reserveMs.p95, 1)}/${fmt(run.reserveMs.p99, 1)} ms`,
    );
  }

  const cost = await admissionCost(ours);
  console.log("");
  console.log(
    `Admission cost: reserve p50 ${fmt(cost.with10, 2)} ms with 10 jobs running, ${fmt(cost.withMany, 2)} ms with ${RUNNING} running: ${fmt(cost.withMany / cost.with10, 2)}x (target: <= 1.5x).`,
  );
  await ours.stop();
}

await main();
