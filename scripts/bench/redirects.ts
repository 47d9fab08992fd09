/**
 * Redirects per second and latency at concurrency 100, three servers in one run,
 * each driven by the same client (scripts/load.mjs clicks mode):
 *  1. ceiling   — bare node:http, one SQLite insert (one fsync) per request (scripts/lib/ceiling-server.mjs);
 *  2. handlers  — the app's route handlers on node:http (scripts/lib/meter-server.ts): the click commits
 *                 before the 302 through group commit;
 *  3. next      — `next start` (production build) serving app/r/[code]/route.ts: the same handler.
 * Targets (issue 4): at least 40% of the ceiling with p99 under 50 ms; the article measured 97 redirects/s,
 * p99 1,633 ms. Smoke it with small counts; the lead runs the final figures.
 *
 *   npx tsx scripts/bench/redirects.ts [--clicks 5000] [--concurrency 100] [--build]
 * `next` needs a production build in .next-bench (made with --build; skipped otherwise).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { table } from "../lib/stats";

const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1]! : fallback;
};
const clicks = Number(opt("clicks", "5000"));
const concurrency = Number(opt("concurrency", "100"));
const root = path.resolve(import.meta.dirname, "../..");
const distDir = ".next-bench";

interface Started {
  child: ChildProcess;
  url: string;
}

async function start(command: string, args: string[], env: Record<string, string>, ready: RegExp, portOf: (m: RegExpExecArray) => number): Promise<Started> {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(" ")} did not start:\n${output}`)), 120_000);
    const onData = (d: Buffer) => {
      output += d.toString();
      const m = ready.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: `http://127.0.0.1:${portOf(m)}` });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited (${code}):\n${output}`)));
  });
}

async function stop(s: Started) {
  const exited = new Promise((r) => s.child.once("exit", r));
  s.child.kill("SIGTERM");
  await exited;
}

async function json(url: string, init: RequestInit & { token?: string; body?: string } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const response = await fetch(url, { ...init, headers });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

/** Opens an account and a link through the app's API; returns the code and the operator token. */
async function linkOn(url: string, dataDir: string): Promise<{ code: string; token: string }> {
  // The first request starts the runtime, which writes the operator token.
  await fetch(`${url}/api/health`).catch(() => undefined);
  const file = path.join(dataDir, "operator-token");
  for (let i = 0; i < 100 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 200));
  const token = fs.readFileSync(file, "utf8").trim();
  const opened = (await json(`${url}/api/v1/accounts`, { method: "POST", token, body: JSON.stringify({ name: "Bench" }) })) as { account: { id: string } };
  const link = (await json(`${url}/api/v1/links`, { method: "POST", token, body: JSON.stringify({ destination: "https://example.com/", accountId: opened.account.id }) })) as {
    code: string;
  };
  return { code: link.code, token };
}

function load(url: string, code: string, token: string, n: number) {
  const result = spawnSync(process.execPath, ["scripts/load.mjs", code, "--clicks", String(n), "--concurrency", String(concurrency), "--url", url, "--token", token, "--json"], {
    cwd: root,
    encoding: "utf8",
  });
  if (result.status !== 0 && !result.stdout) throw new Error(`load failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split("\n").at(-1)!) as { redirectsPerSecond: number; p50Ms: number; p95Ms: number; p99Ms: number; missing: number; errors: number };
}

async function measure(name: string, server: Started, code: string, token: string) {
  load(server.url, code, token, Math.min(500, clicks)); // warm-up: JIT, connections, statement caches
  const r = load(server.url, code, token, clicks);
  console.log(`  done: ${name}`);
  return { name, r };
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tollbooth-bench-redirects-"));
const rows: { name: string; r: ReturnType<typeof load> }[] = [];
console.log(`Redirect benchmark: ${clicks} clicks at concurrency ${concurrency}, ${os.cpus().length} cores, node ${process.version}`);
try {
  const ceiling = await start(process.execPath, ["scripts/lib/ceiling-server.mjs", path.join(tmp, "ceiling")], {}, /listening (\d+)/, (m) => Number(m[1]));
  rows.push(await measure("ceiling (node:http + 1 insert)", ceiling, "bench", "none"));
  await stop(ceiling);

  const handlersDir = path.join(tmp, "handlers");
  const handlers = await start(
    process.execPath,
    ["--import", "tsx", "scripts/lib/meter-server.ts", "0"],
    { TOLLBOOTH_DATA_DIR: handlersDir, TOLLBOOTH_SCHEDULER: "off", NODE_ENV: "production" },
    /listening (\d+)/,
    (m) => Number(m[1]),
  );
  const h = await linkOn(handlers.url, handlersDir);
  rows.push(await measure("route handlers on node:http", handlers, h.code, h.token));
  await stop(handlers);

  if (argv.includes("--build")) {
    console.log("  building the app into .next-bench (next build) …");
    const built = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], { cwd: root, env: { ...process.env, TOLLBOOTH_DIST_DIR: distDir }, stdio: "inherit" });
    if (built.status !== 0) throw new Error("next build failed");
  }
  if (fs.existsSync(path.join(root, distDir, "BUILD_ID"))) {
    const nextDir = path.join(tmp, "next");
    const port = 40_000 + Math.floor(Math.random() * 20_000);
    const next = await start(
      process.execPath,
      ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"],
      { TOLLBOOTH_DATA_DIR: nextDir, TOLLBOOTH_DIST_DIR: distDir, TOLLBOOTH_SCHEDULER: "off", NEXT_TELEMETRY_DISABLED: "1" },
      /Ready in|started server/i,
      () => port,
    );
    await new Promise((r) => setTimeout(r, 500));
    const n = await linkOn(next.url, nextDir);
    rows.push(await measure("next start (app/r/[code])", next, n.code, n.token));
    await stop(next);
  } else {
    console.log(`  next start: skipped (no production build in ${distDir}; pass --build to make one)`);
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

const ceilingRate = rows[0]!.r.redirectsPerSecond;
console.log("");
console.log(
  table(
    rows.map(({ name, r }) => ({
      server: name,
      "redirects/s": r.redirectsPerSecond,
      "of ceiling": `${Math.round((100 * r.redirectsPerSecond) / ceilingRate)}%`,
      "p50 ms": r.p50Ms,
      "p95 ms": r.p95Ms,
      "p99 ms": r.p99Ms,
      missing: r.missing,
      errors: r.errors,
    })),
  ),
);
console.log("");
console.log("Targets: >= 40% of the ceiling, p99 < 50 ms, 0 missing. The article: 97 redirects/s, p99 1,633 ms.");
