// Clicks mode of scripts/load.mjs — the article's command line:
//   node scripts/load.mjs <short code> --clicks 5000 --concurrency 100 --url http://localhost:3000
// Sends GET /r/<code> at the given concurrency (redirects not followed), shows progress, then reads the
// link's clicks back from the API and prints clicks sent, 302s received, clicks recorded, redirects per
// second and latency p50/p95/p99. Exits 1 when any redirected click is missing from what was recorded.
// --warmup N sends N untimed clicks first on the same connections (a fresh client's first requests time its own
// start-up); they are counted in clicks sent and in the missing-click check.
//
// Reading back needs a key that may see the link: --token, or TOLLBOOTH_TOKEN, or the operator token
// in $TOLLBOOTH_DATA_DIR/operator-token (default .tollbooth/operator-token). --json prints one JSON line.
import fs from "node:fs";
import path from "node:path";
import { makeClient, percentile } from "./http.mjs";

function option(argv, name, fallback) {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : fallback;
}

function tokenFrom(argv) {
  const given = option(argv, "token", process.env.TOLLBOOTH_TOKEN);
  if (given) return given;
  const file = path.join(process.env.TOLLBOOTH_DATA_DIR ?? ".tollbooth", "operator-token");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    return null;
  }
}

async function recordedClicks(client, code, token) {
  const response = await client.call("GET", `/api/v1/links/${encodeURIComponent(code)}`, token);
  if (response.status !== 200) throw new Error(`GET /api/v1/links/${code} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 200)}`);
  return { clicks: response.body.stats.clicks, cycle: response.body.stats.cycle };
}

export async function run(argv) {
  const code = argv.find((a, i) => !a.startsWith("--") && (i === 0 || !argv[i - 1].startsWith("--")));
  const total = Number(option(argv, "clicks", "5000"));
  const concurrency = Number(option(argv, "concurrency", "100"));
  const url = option(argv, "url", "http://localhost:3000").replace(/\/$/, "");
  const warmup = Number(option(argv, "warmup", "0"));
  const asJson = argv.includes("--json");
  if (!code || !Number.isInteger(total) || total < 1 || !Number.isInteger(concurrency) || concurrency < 1 || !Number.isInteger(warmup) || warmup < 0) {
    console.error("Usage: node scripts/load.mjs <short code> --clicks 5000 --concurrency 100 --url http://localhost:3000 [--warmup N] [--token KEY] [--json]");
    return 2;
  }
  const token = tokenFrom(argv);
  if (!token) {
    console.error("No key to read the clicks back with: pass --token, set TOLLBOOTH_TOKEN, or run where .tollbooth/operator-token is.");
    return 2;
  }
  const client = makeClient(url, concurrency + 1);
  const before = await recordedClicks(client, code, token);

  // Warm-up clicks (--warmup N) go first on the same connections and are not timed: the first requests of a fresh
  // client pay for its connections and its own JIT warm-up, which says nothing about the server. They still count
  // towards the missing-click check below.
  let redirected = 0;
  let notFound = 0;
  let errors = 0;
  let lastError = null;
  const send = async (count, latencies) => {
    let sent = 0;
    const worker = async () => {
      while (sent < count) {
        sent++;
        const t0 = performance.now();
        try {
          const response = await client.call("GET", `/r/${encodeURIComponent(code)}`);
          latencies?.push(performance.now() - t0);
          if (response.status === 302) redirected++;
          else if (response.status === 404) notFound++;
          else {
            errors++;
            lastError = `HTTP ${response.status}`;
          }
        } catch (error) {
          errors++;
          lastError = error.code ?? error.message;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  };
  if (warmup > 0) await send(warmup, null);
  const warmRedirected = redirected;

  const latencies = [];
  const started = performance.now();
  const progress = asJson
    ? null
    : setInterval(() => {
        const seconds = (performance.now() - started) / 1000;
        process.stderr.write(`\r  ${latencies.length}/${total} sent, ${redirected - warmRedirected} redirected, ${errors + notFound} failed, ${Math.round((redirected - warmRedirected) / seconds)} redirects/s   `);
      }, 500);
  await send(total, latencies);
  const elapsedS = (performance.now() - started) / 1000;
  if (progress) {
    clearInterval(progress);
    process.stderr.write("\n");
  }

  // Convex records a click after its redirect: wait (up to 15 s) for the count to settle.
  let after = await recordedClicks(client, code, token);
  const deadline = Date.now() + 15_000;
  while (after.clicks - before.clicks < redirected && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    after = await recordedClicks(client, code, token);
  }
  client.close();
  const recorded = after.cycle === before.cycle ? after.clicks - before.clicks : after.clicks;
  const sorted = latencies.sort((a, b) => a - b);
  const summary = {
    code,
    concurrency,
    warmupClicks: warmup,
    clicksSent: warmup + total,
    redirects302: redirected,
    clicksRecorded: recorded,
    missing: Math.max(0, redirected - recorded),
    notFound404: notFound,
    errors,
    redirectsPerSecond: Math.round((redirected - warmRedirected) / elapsedS),
    p50Ms: Number(percentile(sorted, 50).toFixed(1)),
    p95Ms: Number(percentile(sorted, 95).toFixed(1)),
    p99Ms: Number(percentile(sorted, 99).toFixed(1)),
    seconds: Number(elapsedS.toFixed(2)),
  };
  if (asJson) console.log(JSON.stringify(summary));
  else {
    console.log(`Clicks on /r/${code} at ${url}, concurrency ${concurrency}`);
    const rows = [
      ["clicks sent", warmup > 0 ? `${summary.clicksSent} (${warmup} warm-up, not timed)` : summary.clicksSent],
      ["302s received", summary.redirects302],
      ["clicks recorded", summary.clicksRecorded],
      ["missing", summary.missing],
      ["404s / errors", `${notFound} / ${errors}${lastError ? ` (last: ${lastError})` : ""}`],
      ["redirects per second", summary.redirectsPerSecond],
      ["latency p50 / p95 / p99", `${summary.p50Ms} / ${summary.p95Ms} / ${summary.p99Ms} ms`],
    ];
    for (const [label, value] of rows) console.log(`  ${String(label).padEnd(24)} ${value}`);
    if (summary.missing > 0) console.log(`  ${summary.missing} redirected clicks are missing from the ledger.`);
  }
  return summary.missing > 0 ? 1 : 0;
}
