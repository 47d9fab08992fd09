// Webhooks mode of scripts/load.mjs:
//   node scripts/load.mjs --webhooks 1000 --concurrency 50 --url http://localhost:3000 [--copies 3] [--customer customer_…] [--json]
// Sends N distinct Kinde billing events as RS256 JWTs (Content-Type application/jwt, a webhook-id that
// stays the same on every copy) to /api/webhooks/kinde at the given concurrency, each --copies times in
// shuffled order. Prints deliveries, 200s, events stored, copies dropped, deliveries per second and
// latency p50/p95/p99; then waits for the worker and prints how the stored events ended.
//
// Signing: the server trusts the stand-in's key (the default provider). This script reads that key from
// the server's data folder ($TOLLBOOTH_DATA_DIR, default .tollbooth; read-only), after asking the server for
// its public key set (which makes the key if there is none yet).
// Reading results needs the operator token: --token, TOLLBOOTH_TOKEN, or <data dir>/operator-token.
// With --customer the events are plan changes and payments for that Kinde customer; otherwise they are
// meter_usage_updated events for an unknown customer (stored, then ignored with a reason).
import Database from "better-sqlite3";
import { importJWK, SignJWT } from "jose";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { percentile } from "./http.mjs";

function option(argv, name, fallback) {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : fallback;
}

function dataDir() {
  return process.env.TOLLBOOTH_DATA_DIR ?? ".tollbooth";
}

function operatorToken(argv) {
  const given = option(argv, "token", process.env.TOLLBOOTH_TOKEN);
  if (given) return given;
  try {
    return fs.readFileSync(path.join(dataDir(), "operator-token"), "utf8").trim();
  } catch {
    return null;
  }
}

function standinKey() {
  const file = path.join(dataDir(), "tollbooth.db");
  if (!fs.existsSync(file)) return null;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT kid, private_jwk FROM standin_signing_keys ORDER BY created_at_ms DESC LIMIT 1").get() ?? null;
  } catch {
    return null;
  } finally {
    db.close();
  }
}

function shuffle(items) {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

export async function run(argv) {
  const total = Number(option(argv, "webhooks", "1000"));
  const concurrency = Number(option(argv, "concurrency", "50"));
  const copies = Number(option(argv, "copies", "1"));
  const url = option(argv, "url", "http://localhost:3000").replace(/\/$/, "");
  const customer = option(argv, "customer", null);
  const asJson = argv.includes("--json");
  if (![total, concurrency, copies].every((n) => Number.isInteger(n) && n >= 1) || copies > 10) {
    console.error("Usage: node scripts/load.mjs --webhooks 1000 --concurrency 50 --url http://localhost:3000 [--copies 1..10] [--customer customer_…] [--token KEY] [--json]");
    return 2;
  }
  // The stand-in makes its signing key on first use; asking for its public key set is enough.
  await fetch(`${url}/api/standin/.well-known/jwks`).catch(() => null);
  const key = standinKey();
  if (!key) {
    console.error(`No stand-in signing key in ${path.join(dataDir(), "tollbooth.db")}: set TOLLBOOTH_DATA_DIR to the folder of the server at ${url} (its provider must be the stand-in).`);
    return 2;
  }
  const privateKey = await importJWK(JSON.parse(key.private_jwk), "RS256");
  const token = operatorToken(argv);

  // Sign every event before sending, so signing is not what is measured.
  const run = randomBytes(4).toString("hex");
  const base = Date.now() - 60_000;
  const events = [];
  for (let i = 0; i < total; i++) {
    const type = customer ? (i % 2 === 0 ? "customer.plan_changed" : "customer.payment_succeeded") : "customer.meter_usage_updated";
    const atMs = base + i;
    const claims = {
      type,
      event_id: `event_load_${run}_${i}`,
      timestamp: new Date(atMs + 1000).toISOString(),
      event_timestamp: new Date(atMs).toISOString(),
      source: "admin",
      data: { customer_id: customer ?? `customer_load_${run}`, customer_type: "user", plan: { key: i % 4 < 2 ? "pro" : "free" } },
    };
    events.push({ webhookId: `msg_load_${run}_${i}`, jwt: await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: key.kid, typ: "JWT" }).sign(privateKey) });
  }
  const queue = shuffle(events.flatMap((e) => Array.from({ length: copies }, () => e)));

  const latencies = [];
  const stored = new Set();
  let ok = 0;
  let dropped = 0;
  let failed = 0;
  let lastError = null;
  let next = 0;
  const started = performance.now();
  const progress = asJson
    ? null
    : setInterval(() => process.stderr.write(`\r  ${next}/${queue.length} sent, ${ok} answered 200, ${failed} failed   `), 500);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < queue.length) {
        const item = queue[next++];
        const t0 = performance.now();
        try {
          const response = await fetch(`${url}/api/webhooks/kinde`, { method: "POST", headers: { "content-type": "application/jwt", "webhook-id": item.webhookId }, body: item.jwt });
          const body = await response.json().catch(() => null);
          latencies.push(performance.now() - t0);
          if (response.status === 200) {
            ok++;
            if (body?.stored) stored.add(body.inboxEventId);
            else dropped++;
          } else {
            failed++;
            lastError = `${response.status} ${body?.error?.message ?? ""}`;
          }
        } catch (error) {
          failed++;
          lastError = error.message;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  if (progress) {
    clearInterval(progress);
    process.stderr.write("\n");
  }

  // How the stored events ended, once the worker is through (up to 60 s).
  const outcome = { applied: 0, ignored: 0, failed: 0, dead: 0, waiting: stored.size, unread: 0 };
  if (token && stored.size > 0) {
    const deadline = Date.now() + 60_000;
    const ids = [...stored];
    for (;;) {
      const statuses = [];
      let at = 0;
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          while (at < ids.length) {
            const id = ids[at++];
            const response = await fetch(`${url}/api/v1/inbox/events/${id}`, { headers: { authorization: `Bearer ${token}` } });
            statuses.push(response.ok ? (await response.json()).event.status : "unread");
          }
        }),
      );
      const count = (s) => statuses.filter((x) => x === s).length;
      Object.assign(outcome, { applied: count("applied"), ignored: count("ignored"), failed: count("failed"), dead: count("dead"), unread: count("unread"), waiting: count("received") + count("processing") });
      if (outcome.waiting === 0 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  const sorted = latencies.sort((a, b) => a - b);
  const summary = {
    deliveries: queue.length,
    events: total,
    answered200: ok,
    stored: stored.size,
    copiesDropped: dropped,
    failed,
    deliveriesPerSecond: Math.round(queue.length / seconds),
    p50ms: Number(percentile(sorted, 50).toFixed(1)),
    p95ms: Number(percentile(sorted, 95).toFixed(1)),
    p99ms: Number(percentile(sorted, 99).toFixed(1)),
    ...(token ? { applied: outcome.applied, ignored: outcome.ignored, failedEvents: outcome.failed, dead: outcome.dead, stillWaiting: outcome.waiting } : {}),
  };
  if (asJson) console.log(JSON.stringify(summary));
  else {
    for (const [k, v] of Object.entries(summary)) console.log(`  ${k.padEnd(20)} ${v}`);
    if (lastError) console.log(`  last error           ${lastError}`);
    if (!token) console.log("  (no operator token: how the events ended was not read)");
  }
  // Every event must be stored exactly once, and every delivery answered 200.
  return stored.size === total && failed === 0 ? 0 : 1;
}
