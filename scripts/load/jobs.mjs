// Jobs mode of scripts/load.mjs (Part A's load run), plain ESM with no server imports:
//   node scripts/load.mjs --jobs 120 --estimate 1000 --limit 100000 --concurrency 50 --url http://localhost:3000
//
// Opens fresh account(s) with that limit (POST /api/v1/accounts with the operator token), runs each job's whole
// life against the HTTP API — reserve, a few charges, settle — `concurrency` jobs at a time, then reads each
// account's budget back. Exits 1 when any account's usage passed its limit or anything is still held, 2 on bad
// arguments, 0 otherwise.
//
// Options (defaults in brackets):
//   --jobs N            jobs to run (required)
//   --estimate N        tokens each job holds and spends [1000]
//   --limit N           each fresh account's tokens limit [100000]
//   --concurrency N     jobs in flight at once [50]
//   --url URL           the server [http://localhost:3000]
//   --accounts N        spread the jobs round-robin over N fresh accounts [1]
//   --charges N         charges per job (the estimate split into N steps) [3]
//   --rate N            the fresh accounts' admissions per minute [server default: 120]
//   --key-rate N        give each fresh account a second API key allowed N requests a minute and use it
//                       [the first key, 600 a minute]; the benchmark and the crash test send more than that
//   --token T           operator token [$TOLLBOOTH_OPERATOR_TOKEN, else $TOLLBOOTH_DATA_DIR/operator-token, else .tollbooth/operator-token]
//   --retry-for MS      keep retrying a request that got no answer for this long, same key and step [3000]
//   --record FILE       append one JSON line per admitted job ({ id, key, accountId }) as soon as it is admitted
//   --json              print the summary as one JSON line on stdout (progress stays on stderr)
import fs from "node:fs";
import path from "node:path";
import { makeClient, percentile } from "./http.mjs";

const USAGE = "Usage: node scripts/load.mjs --jobs N [--estimate N] [--limit N] [--concurrency N] [--url URL] [--accounts N] [--charges N] [--rate N] [--key-rate N] [--token T] [--retry-for MS] [--record FILE] [--json]";

function parseArgs(argv) {
  const spec = {
    jobs: { type: "int", min: 1 },
    estimate: { type: "int", min: 1, fallback: 1000 },
    limit: { type: "int", min: 0, fallback: 100_000 },
    concurrency: { type: "int", min: 1, fallback: 50 },
    accounts: { type: "int", min: 1, fallback: 1 },
    charges: { type: "int", min: 1, fallback: 3 },
    rate: { type: "int", min: 1 },
    "key-rate": { type: "int", min: 1 },
    "retry-for": { type: "int", min: 0, fallback: 3000 },
    url: { type: "string", fallback: "http://localhost:3000" },
    token: { type: "string" },
    record: { type: "string" },
    json: { type: "flag" },
  };
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, "");
    const option = spec[name];
    if (!argv[i].startsWith("--") || !option) throw new Error(`unknown argument ${argv[i]}`);
    if (option.type === "flag") {
      out[name] = true;
      continue;
    }
    const value = argv[++i];
    if (value === undefined) throw new Error(`--${name} needs a value`);
    if (option.type === "int") {
      const n = Number(value);
      if (!Number.isSafeInteger(n) || n < option.min) throw new Error(`--${name} must be a whole number of at least ${option.min}`);
      out[name] = n;
    } else out[name] = value;
  }
  for (const [name, option] of Object.entries(spec)) if (out[name] === undefined && option.fallback !== undefined) out[name] = option.fallback;
  if (out.jobs === undefined) throw new Error("--jobs is required");
  return out;
}

function operatorToken(given) {
  if (given) return given;
  if (process.env.TOLLBOOTH_OPERATOR_TOKEN) return process.env.TOLLBOOTH_OPERATOR_TOKEN;
  const file = path.join(process.env.TOLLBOOTH_DATA_DIR ?? ".tollbooth", "operator-token");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    throw new Error(`no operator token: pass --token, set TOLLBOOTH_OPERATOR_TOKEN, or run from the folder whose ${file} the server wrote`);
  }
}

function splitSteps(total, parts) {
  const base = Math.floor(total / parts);
  return Array.from({ length: parts }, (_, i) => (i === parts - 1 ? total - base * (parts - 1) : base));
}

export async function run(argv) {
  let args;
  try {
    args = parseArgs(argv);
  } catch (error) {
    console.error(`${error.message}\n${USAGE}`);
    return 2;
  }
  const say = (line) => (args.json ? process.stderr : process.stdout).write(`${line}\n`);
  const client = makeClient(args.url, args.concurrency + 4);
  const runId = Date.now().toString(36);
  const record = args.record ? fs.openSync(args.record, "a") : null;

  // Fresh accounts, each with the limit.
  let token;
  try {
    token = operatorToken(args.token);
  } catch (error) {
    console.error(error.message);
    return 2;
  }
  const accounts = [];
  for (let a = 0; a < args.accounts; a++) {
    const body = { name: `load ${runId} #${a + 1}`, limits: { tokens: args.limit }, ...(args.rate ? { admissionsPerMinute: args.rate } : {}) };
    let opened;
    try {
      opened = await client.call("POST", "/api/v1/accounts", token, body, args["retry-for"]);
    } catch (error) {
      console.error(`Cannot reach ${args.url}: ${error.message}`);
      return 2;
    }
    if (opened.status !== 201) {
      console.error(`Opening an account failed: HTTP ${opened.status} ${JSON.stringify(opened.body)}`);
      return 2;
    }
    let key = opened.body.apiKey.key;
    if (args["key-rate"]) {
      const made = await client.call("POST", `/api/v1/accounts/${opened.body.account.id}/keys`, token, { ratePerMinute: args["key-rate"] }, args["retry-for"]);
      if (made.status !== 201) {
        console.error(`Making a key with --key-rate failed: HTTP ${made.status} ${JSON.stringify(made.body)}`);
        return 2;
      }
      key = made.body.apiKey.key;
    }
    accounts.push({ id: opened.body.account.id, key });
  }
  say(`${args.jobs} jobs of ${args.estimate} tokens, ${args.concurrency} at a time, over ${args.accounts} fresh account${args.accounts > 1 ? "s" : ""} with a limit of ${args.limit} each, at ${args.url}`);

  // failed: jobs that did not run to their end because of an error; abandoned: those of them that had been admitted.
  const counts = { started: 0, refused: 0, rateLimited: 0, unavailable: 0, capped: 0, swept: 0, failed: 0, abandoned: 0 };
  const reserveMs = [];
  const failures = new Map();
  const fail = (why) => {
    counts.failed++;
    failures.set(why, (failures.get(why) ?? 0) + 1);
  };
  const steps = splitSteps(args.estimate, args.charges);
  const retryFor = args["retry-for"];

  async function lifecycle(i) {
    const account = accounts[i % accounts.length];
    const key = `load-${runId}-${i}`;
    const t0 = performance.now();
    let reserved;
    try {
      reserved = await client.call("POST", "/api/v1/jobs", account.key, { key, estimate: args.estimate }, retryFor);
    } catch (error) {
      return fail(`reserve: ${error.message}`);
    }
    reserveMs.push(performance.now() - t0);
    if (reserved.status === 402) return void counts.refused++;
    if (reserved.status === 429) return void counts.rateLimited++;
    if (reserved.status === 503) return void counts.unavailable++;
    if (reserved.status !== 201 && reserved.status !== 200) return fail(`reserve: HTTP ${reserved.status} ${reserved.body?.error?.code ?? ""}`);
    counts.started++;
    const id = reserved.body.id;
    if (record !== null) fs.writeSync(record, `${JSON.stringify({ id, key, accountId: account.id })}\n`);
    try {
      for (let s = 0; s < steps.length; s++) {
        const charged = await client.call("POST", `/api/v1/jobs/${id}/charge`, account.key, { tokens: steps[s], step: s + 1 }, retryFor);
        if (charged.status !== 200) return fail(`charge: HTTP ${charged.status}`);
        if (charged.body.outcome === "capped") return void counts.capped++;
        if (charged.body.outcome === "ignored") return void counts.swept++;
      }
      const settled = await client.call("POST", `/api/v1/jobs/${id}/settle`, account.key, { used: args.estimate, outcome: "completed" }, retryFor);
      if (settled.status !== 200) return fail(`settle: HTTP ${settled.status}`);
      if (settled.body.job.status === "expired") counts.swept++;
    } catch (error) {
      // The worker gives up: its hold stays until the sweeper settles it at its recorded usage.
      counts.abandoned++;
      return fail(`abandoned: ${error.message}`);
    }
  }

  const started = performance.now();
  let next = 0;
  let done = 0;
  const tty = !args.json && process.stdout.isTTY;
  const progress = setInterval(() => {
    const line = `  ${done}/${args.jobs} jobs done, ${counts.started} started, ${counts.refused} refused, ${counts.failed} failed`;
    if (tty) process.stdout.write(`\r${line}`);
    else process.stderr.write(`${line}\n`);
  }, tty ? 200 : 1000);
  progress.unref();
  await Promise.all(
    Array.from({ length: Math.min(args.concurrency, args.jobs) }, async () => {
      while (next < args.jobs) {
        const i = next++;
        await lifecycle(i);
        done++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const requestsDuringRun = client.requests;
  clearInterval(progress);
  if (tty) process.stdout.write("\r\x1b[K");
  if (record !== null) fs.closeSync(record);

  // What the server says was spent and is still held.
  let spent = 0;
  let held = 0;
  let overLimit = 0;
  const perAccount = [];
  for (const account of accounts) {
    const answer = await client.call("GET", `/api/v1/accounts/${account.id}/budget`, account.key, undefined, retryFor);
    const b = answer.body.budget;
    spent += b.used;
    held += b.held;
    if (b.limit !== null && b.used + b.held > b.limit) overLimit++;
    perAccount.push({ accountId: account.id, limit: b.limit, used: b.used, held: b.held });
  }
  client.close();

  const sorted = [...reserveMs].sort((a, b) => a - b);
  const summary = {
    jobs: args.jobs,
    started: counts.started,
    refused: counts.refused,
    rateLimited: counts.rateLimited,
    unavailable: counts.unavailable,
    capped: counts.capped,
    swept: counts.swept,
    failed: counts.failed,
    abandoned: counts.abandoned,
    spent,
    held,
    limit: args.limit * args.accounts,
    seconds: Number(seconds.toFixed(3)),
    requests: requestsDuringRun,
    requestsPerSecond: Math.round(requestsDuringRun / seconds),
    reserveMs: { p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), p99: round(percentile(sorted, 99)), max: round(sorted.at(-1) ?? NaN) },
    accounts: perAccount,
    failures: Object.fromEntries(failures),
  };
  if (args.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else {
    const rows = [
      ["started", summary.started],
      ["refused", summary.refused],
      ...(summary.rateLimited ? [["rate limited (429)", summary.rateLimited]] : []),
      ...(summary.unavailable ? [["limit unavailable (503)", summary.unavailable]] : []),
      ...(summary.capped ? [["capped", summary.capped]] : []),
      ...(summary.swept ? [["swept (expired)", summary.swept]] : []),
      ["failed", summary.failed],
      ...(summary.abandoned ? [["  of them admitted, then abandoned", summary.abandoned]] : []),
      ["spent", summary.spent],
      ["still held", summary.held],
      ["limit", summary.limit],
      ["total seconds", summary.seconds.toFixed(2)],
      ["requests", summary.requests],
      ["requests per second", summary.requestsPerSecond],
      ["reserve p50 ms", summary.reserveMs.p50],
      ["reserve p95 ms", summary.reserveMs.p95],
      ["reserve p99 ms", summary.reserveMs.p99],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    say("");
    for (const [k, v] of rows) say(`  ${k.padEnd(width)}  ${v}`);
    for (const [why, n] of failures) say(`  failure: ${why} × ${n}`);
  }
  if (overLimit > 0) {
    console.error(`FAILED: ${overLimit} account${overLimit > 1 ? "s" : ""} passed the limit.`);
    return 1;
  }
  if (held > 0) {
    console.error(`FAILED: ${held} tokens are still held after the run.`);
    return 1;
  }
  return 0;
}

function round(n) {
  return Number.isFinite(n) ? Number(n.toFixed(2)) : null;
}
