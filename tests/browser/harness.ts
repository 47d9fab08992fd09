/**
 * Real servers and a real browser for page tests: `next dev` on a free port
 * with a fresh data folder, and Debian's Chromium driven by playwright-core.
 * Chromium must be at /usr/bin/chromium (.ci/run installs it). Outside CI a
 * missing Chromium skips these tests with a printed reason; in CI it fails.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";
import { tempDataDir } from "../contract/engines";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const chromiumAvailable = fs.existsSync(CHROMIUM);
if (!chromiumAvailable) {
  const message = `Browser tests need Chromium at ${CHROMIUM} (apt-get install chromium).`;
  if (process.env.CI) throw new Error(message);
  console.warn(`SKIPPING browser tests: ${message}`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export interface RunningServer {
  url: string;
  dataDir: string;
  operatorToken(): string;
  setupToken(): string;
  output(): string;
  stop(): Promise<void>;
}

export async function startDevServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = tempDataDir();
  // next dev adds its build folder to tsconfig.json's include; put the file back when the server stops.
  const tsconfig = fs.readFileSync("tsconfig.json", "utf8");
  let output = "";
  const child: ChildProcess = spawn(process.execPath, [path.resolve("node_modules/next/dist/bin/next"), "dev", "-p", String(port), "-H", "127.0.0.1"], {
    env: { ...process.env, TOLLBOOTH_DATA_DIR: dataDir, TOLLBOOTH_DIST_DIR: `.next-test-${port}`, NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next dev exited early:\n${output}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`next dev did not answer within 60 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    dataDir,
    operatorToken: () => fs.readFileSync(path.join(dataDir, "operator-token"), "utf8").trim(),
    setupToken: () => fs.readFileSync(path.join(dataDir, "setup-token"), "utf8").trim(),
    output: () => output,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      fs.rmSync(path.resolve(`.next-test-${port}`), { recursive: true, force: true });
      fs.writeFileSync("tsconfig.json", tsconfig);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
