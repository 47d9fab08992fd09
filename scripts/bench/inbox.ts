/**
 * Inbox benchmarks (Part C), printed by `npm run bench`:
 *
 * 1. Worker apply rate: N stored events (plan changes and payments over many
 *    accounts) drained by the real worker on the embedded engine at full
 *    durability (WAL, synchronous=FULL, group commit). Steady state = the
 *    rate over the whole drain after a warm-up batch. Target: ≥ 2,000/s.
 * 2. Intake over HTTP at concurrency 50: POST /api/webhooks/kinde verifying
 *    real RS256 webhooks against a Kinde key set (the fake Kinde server's
 *    JWKS, fetched by the real Kinde adapter) and storing each, beside a bare
 *    route that answers 200 on the same server (POST /api/ping with the same
 *    body), in the same run: on the production server (`npm start`,
 *    dist/server.mjs: both on the direct path) and through Next.js's route
 *    handlers (`next start` over the same .next build). Besides wall-clock
 *    figures it prints the server's CPU time per delivery (from /proc).
 *
 *   npx tsx scripts/bench/inbox.ts [--events=20000] [--seconds=10] [--concurrency=50] [--no-http] [--skip-next]
 * The HTTP part needs the production build (`npm run build`); it builds one if there is none.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as accounts from "../../lib/accounts/scripts";
import { SqliteEngine } from "../../lib/engine/sqlite/engine";
import * as inbox from "../../lib/inbox/scripts";
import { runInboxWorker } from "../../lib/inbox/worker";
import { startFakeKinde } from "../../tests/fakes/kinde-server";
import { fmt, summarize, table } from "../lib/stats";
import { ensureBuild, nextStart, production, startServer, withServerCpu, type Command } from "./lib/servers";

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const flag = (name: string) => process.argv.includes(`--${name}`);
const EVENTS = arg("events", 20_000);
const SECONDS = arg("seconds", 10);
const CONCURRENCY = arg("concurrency", 50);
const ACCOUNTS = 200;

async function workerRate(): Promise<Record<string, string | number>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tollbooth-bench-inbox-"));
  const engine = new SqliteEngine({ dataDir });
  try {
    const customers: string[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      customers.push(`customer_bench_${i}`);
      await engine.run(accounts.create, { name: `bench ${i}`, kindeCustomerId: customers[i]! });
    }
    const base = Date.now() - 3_600_000;
    const receive = (i: number) => {
      const type = i % 3 === 0 ? "customer.plan_changed" : i % 3 === 1 ? "customer.payment_succeeded" : "customer.agreement_cancelled";
      const payload = { type, event_id: `event_${i}`, timestamp: new Date(base + i).toISOString(), data: { customer_id: customers[i % ACCOUNTS], plan: { key: "pro" }, agreement_id: `agreement_${i % ACCOUNTS}` } };
      return engine.run(inbox.receive, {
        source: "kinde",
        dedupeKey: `msg_${i}`,
        webhookId: `msg_${i}`,
        eventId: `event_${i}`,
        type,
        payload: JSON.stringify(payload),
        occurredAtMs: base + i,
        customerId: customers[i % ACCOUNTS]!,
        sizeBytes: 700,
        stopAtAttempt: null,
      });
    };
    for (let start = 0; start < EVENTS; start += 1000) await Promise.all(Array.from({ length: Math.min(1000, EVENTS - start) }, (_, j) => receive(start + j)));
    const ctx = { run: engine.run.bind(engine), nowMs: Date.now, log: () => {} };
    // Warm-up: one pass of a few batches (statement preparation, page cache).
    await runInboxWorker(ctx, { maxBatches: 8 });
    const started = performance.now();
    let applied = 0;
    for (;;) {
      const pass = await runInboxWorker(ctx, { maxBatches: 400 });
      applied += pass.applied + pass.ignored;
      if (pass.claimed === 0) break;
    }
    const seconds = (performance.now() - started) / 1000;
    const stats = engine.writerStats();
    return { what: "worker: claim + apply + mark (one tx per event, group commit)", events: applied, seconds: fmt(seconds, 2), "events/s": Math.round(applied / seconds), "scripts/commit": fmt(stats.scripts / stats.batches, 1) };
  } finally {
    await engine.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function closedLoop(send: (i: number) => Promise<Response>, seconds: number): Promise<{ n: number; rate: number; p50: number; p99: number; non200: number }> {
  const latencies: number[] = [];
  let next = 0;
  let non200 = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const t = performance.now();
        const response = await send(next++);
        await response.arrayBuffer();
        if (response.status !== 200) non200++;
        latencies.push(performance.now() - t);
      }
    }),
  );
  const s = summarize(latencies);
  return { n: latencies.length, rate: latencies.length / ((performance.now() - started) / 1000), p50: s.p50, p99: s.p99, non200 };
}

type FakeKinde = Awaited<ReturnType<typeof startFakeKinde>>;

/** Pre-signed distinct events, so signing is not measured; with a fresh webhook-id each, every delivery stores a new event. */
async function signedTokens(fake: FakeKinde): Promise<string[]> {
  const tokens: string[] = [];
  const count = Math.max(2_000, Math.ceil(SECONDS * 4_000));
  for (let i = 0; i < count; i++) {
    tokens.push(await fake.signWebhook({ type: "customer.meter_usage_updated", event_id: `event_b_${i}`, timestamp: new Date().toISOString(), event_timestamp: new Date().toISOString(), source: "admin", data: { customer_id: "customer_unknown" } }));
  }
  return tokens;
}

/** The bare route and the intake on one server, each for SECONDS at CONCURRENCY. */
async function intakeRows(name: string, command: Command, fake: FakeKinde, tokens: string[]): Promise<Record<string, string | number>[]> {
  const env = { TOLLBOOTH_PROVIDER: "kinde", KINDE_DOMAIN: fake.url, KINDE_M2M_CLIENT_ID: "fake_m2m_client", KINDE_M2M_CLIENT_SECRET: "fake_m2m_secret" };
  const server = await startServer(name, command, { env });
  try {
    const bare = (i: number) => fetch(`${server.url}/api/ping`, { method: "POST", body: tokens[i % tokens.length], headers: { "content-type": "application/jwt" } });
    const intake = (i: number) => fetch(`${server.url}/api/webhooks/kinde`, { method: "POST", body: tokens[i % tokens.length], headers: { "content-type": "application/jwt", "webhook-id": `msg_b_${i}` } });
    await closedLoop(bare, 1);
    await closedLoop((i) => intake(i + 1_000_000), 1); // warm-up: JWKS fetch, compiled route, prepared statements
    const rows: Record<string, string | number>[] = [];
    for (const [what, send] of [["bare route (POST /api/ping: 200, no work)", bare], ["webhook intake (verify RS256 + store)", intake]] as const) {
      const { result: r, cpuSeconds } = await withServerCpu(server, () => closedLoop(send, SECONDS));
      rows.push({
        server: name,
        route: what,
        requests: r.n,
        "req/s": Math.round(r.rate),
        "p50 ms": fmt(r.p50, 1),
        "p99 ms": fmt(r.p99, 1),
        "non-200": r.non200,
        "server CPU ms/req": cpuSeconds === null ? "-" : fmt((cpuSeconds * 1000) / r.n, 3),
      });
    }
    rows[1]!["of bare"] = `${Math.round((100 * Number(rows[1]!["req/s"])) / Number(rows[0]!["req/s"]))}%`;
    rows[0]!["of bare"] = "100%";
    return rows;
  } finally {
    await server.stop();
  }
}

async function intakeRate(): Promise<Record<string, string | number>[]> {
  ensureBuild();
  const fake = await startFakeKinde();
  try {
    const tokens = await signedTokens(fake);
    const rows = await intakeRows("Tollbooth (npm start: direct path)", production(), fake, tokens);
    if (!flag("skip-next")) rows.push(...(await intakeRows("Tollbooth via Next.js (next start)", nextStart(), fake, tokens)));
    return rows;
  } finally {
    await fake.close();
  }
}

console.log(`Inbox benchmark: ${os.cpus().length} cores, node ${process.version}`);
console.log("");
console.log(table([await workerRate()]));
if (!flag("no-http")) {
  console.log("");
  console.log(table(await intakeRate()));
  console.log("");
  console.log("Targets: the worker >= 2,000 events/s; intake deliveries/s and p99 at concurrency 50 are reported beside the bare route on the same server.");
}
