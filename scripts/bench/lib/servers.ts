/**
 * Server processes for the benchmarks (scripts/bench/*.ts) and the crash tests (tests/crash/): start one on a free
 * port with its own data folder, wait until a path answers, stop it, read its operator token and the CPU time of
 * its process tree, and make sure ONE production build exists (`.next/BUILD_ID` and `dist/server.mjs`).
 *
 * The servers, each started with `startServer(name, command, …)`:
 *  - `production()`  — `npm start`: dist/server.mjs (or another bundle), the direct routes and Next.js behind them;
 *  - `nextStart()`   — plain `next start` over the same .next build: every route through Next.js's router;
 *  - `bare(sync)`    — the machine's ceiling, scripts/bench/lib/bare-server.mjs: node:http and one SQLite write per
 *                      request, synchronous=FULL (a fsync per request) or NORMAL (no fsync per commit).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../lib/net";

export const root = path.resolve(import.meta.dirname, "../../..");

/** This process's environment without TOLLBOOTH_DIST_DIR: every server here serves the one .next build. */
function baseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.TOLLBOOTH_DIST_DIR;
  return env;
}

/** A server's node arguments, given the port and data folder it gets. */
export type Command = (port: number, dataDir: string) => string[];

export const production =
  (bundle = path.join(root, "dist/server.mjs")): Command =>
  (port) => [bundle, "-p", String(port), "-H", "127.0.0.1"];
export const nextStart = (): Command => (port) => [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"];
export const bare =
  (synchronous: "FULL" | "NORMAL"): Command =>
  (port, dataDir) => [path.join(root, "scripts/bench/lib/bare-server.mjs"), String(port), dataDir, synchronous];

export interface ServerProcess {
  name: string;
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  /** SIGTERM, wait for the exit; removes the data folder if startServer made it. */
  stop(): Promise<void>;
  /** SIGKILL, wait for the exit; the data folder stays (a crash test starts the server again on it). */
  kill(): Promise<void>;
}

export interface StartOptions {
  /** Extra environment (TOLLBOOTH_DATA_DIR, NODE_ENV=production and NEXT_TELEMETRY_DISABLED=1 are set). */
  env?: Record<string, string>;
  /** Ready once a GET of this path answers below 500. Default /api/ping (a direct route: no page build needed). */
  readyPath?: string;
  /** A fixed port (a restart on the same address); default a free one. */
  port?: number;
  /** A data folder to use and keep; default a new temporary one, removed by stop(). */
  dataDir?: string;
  timeoutMs?: number;
}

/** Polls `url` until it answers below 500; fails at once if the process exits. */
export async function waitFor(url: string, child: ChildProcess, output: () => string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited before answering ${url}:\n${output()}`);
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`no answer from ${url} within ${timeoutMs / 1000} s:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startServer(name: string, command: Command, options: StartOptions = {}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const ownsData = options.dataDir === undefined;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "tollbooth-server-"));
  let text = "";
  const child = spawn(process.execPath, command(port, dataDir), {
    cwd: root,
    env: { ...baseEnv(), TOLLBOOTH_DATA_DIR: dataDir, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d: Buffer) => (text += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (text += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  try {
    await waitFor(`${url}${options.readyPath ?? "/api/ping"}`, child, () => text, options.timeoutMs);
  } catch (error) {
    await end("SIGKILL");
    if (ownsData) fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    name,
    url,
    port,
    dataDir,
    child,
    output: () => text,
    exited,
    async stop() {
      await end("SIGTERM");
      if (ownsData) fs.rmSync(dataDir, { recursive: true, force: true });
    },
    kill: () => end("SIGKILL"),
  };
}

/** The server's operator token (the runtime writes it at start); "bare" for the ceiling, which has none. */
export function operatorToken(server: ServerProcess): string {
  const file = path.join(server.dataDir, "operator-token");
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim() : "bare";
}

/** CPU seconds (user + system) of a process and its descendants, from /proc; null off Linux. */
export function treeCpuSeconds(pid: number): number | null {
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

/** Measures the CPU seconds a server's process tree spends while `work` runs (null off Linux). */
export async function withServerCpu<T>(server: ServerProcess, work: () => T | Promise<T>): Promise<{ result: T; cpuSeconds: number | null }> {
  const before = treeCpuSeconds(server.child.pid!);
  const result = await work();
  const after = treeCpuSeconds(server.child.pid!);
  return { result, cpuSeconds: before === null || after === null ? null : after - before };
}

/** The one production build the benchmarks serve: `next build` into .next and dist/server.mjs; `npm run build` if either is missing. */
export function ensureBuild(): void {
  if (fs.existsSync(path.join(root, ".next/BUILD_ID")) && fs.existsSync(path.join(root, "dist/server.mjs"))) return;
  console.log("No production build (.next/BUILD_ID and dist/server.mjs): running npm run build first …");
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit", env: { ...baseEnv(), NEXT_TELEMETRY_DISABLED: "1" } });
  if (result.status !== 0) throw new Error("npm run build failed");
}

/** Runs the load client (scripts/load.mjs, a separate process) with --json and returns its summary line. */
export function runLoad<T>(args: string[]): T {
  const result = spawnSync(process.execPath, [path.join(root, "scripts/load.mjs"), ...args, "--json"], { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const line = result.stdout.trim().split("\n").filter((l) => l.startsWith("{")).at(-1) ?? "";
  try {
    return JSON.parse(line) as T;
  } catch {
    throw new Error(`the load client failed (${result.status}):\n${result.stderr}\n${result.stdout}`);
  }
}
