/**
 * Real servers and a real browser for page tests: `next dev` on a free port
 * with a fresh data folder, and Debian's Chromium driven by playwright-core.
 * Chromium must be at /usr/bin/chromium (.ci/run installs it). Outside CI a
 * missing Chromium skips these tests with a printed reason; in CI it fails.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { freePort } from "../../scripts/lib/net";
import { tempDataDir } from "../contract/engines";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const chromiumAvailable = fs.existsSync(CHROMIUM);
if (!chromiumAvailable) {
  const message = `Browser tests need Chromium at ${CHROMIUM} (apt-get install chromium).`;
  if (process.env.CI) throw new Error(message);
  console.warn(`SKIPPING browser tests: ${message}`);
}

export { freePort };

export interface RunningServer {
  url: string;
  dataDir: string;
  operatorToken(): string;
  /** The first-run setup token, while the setup has not been used. */
  setupToken(): string;
  output(): string;
  stop(): Promise<void>;
}

export async function startDevServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = tempDataDir();
  let output = "";
  const child: ChildProcess = spawn(process.execPath, [path.resolve("node_modules/next/dist/bin/next"), "dev", "-p", String(port), "-H", "127.0.0.1"], {
    env: { ...process.env, TOLLBOOTH_DATA_DIR: dataDir, TOLLBOOTH_DIST_DIR: `.next-test-${port}`, NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next dev exited early:\n${output}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`next dev did not answer within 180 s:\n${output}`);
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
      fs.rmSync(path.resolve(`.next-test-${port}.tsconfig.json`), { force: true });
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Pages wait long for navigation: `next dev` compiles each page on its first
 * visit, which takes tens of seconds on a loaded 2-core machine.
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
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
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    const page = await newPage(options);
    page.setDefaultTimeout(90_000);
    page.setDefaultNavigationTimeout(180_000);
    return page;
  };
  return browser;
}

/** A dev server and a browser for the surrounding describe block, started once and stopped after its tests. */
export function useServerAndBrowser(env: Record<string, string> = {}): { server(): RunningServer; browser(): Browser } {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startDevServer(env);
    browser = await launchBrowser();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`useServerAndBrowser: no ${what} outside a test`);
    return value;
  };
  return { server: () => need(server, "server"), browser: () => need(browser, "browser") };
}

export const OPERATOR = { name: "Test Operator", email: "operator@example.com", password: "a long operator password" };

/**
 * Signs the page in as an operator: on a fresh server through the first-run
 * page (with the printed setup token), afterwards with the password.
 */
export async function signInAsOperator(page: Page, server: RunningServer): Promise<void> {
  await page.goto(`${server.url}/setup`);
  if ((await page.locator("#setupToken").count()) > 0) {
    await page.fill("#setupToken", server.setupToken());
    await page.fill("#name", OPERATOR.name);
    await page.fill("#email", OPERATOR.email);
    await page.fill("#password", OPERATOR.password);
  } else {
    await page.goto(`${server.url}/signin`);
    await page.fill("#email", OPERATOR.email);
    await page.fill("#password", OPERATOR.password);
  }
  await page.click("button[type=submit]");
  await page.waitForURL(/\/app$/);
}

/** A member accepts an invite link (name and password) and lands on their account at /account. */
export async function acceptInvite(page: Page, inviteLink: string, name = "Mia", password = "a long member password"): Promise<void> {
  await page.goto(inviteLink);
  await page.fill("#name", name);
  await page.fill("#password", password);
  await page.click("button[type=submit]");
  await page.waitForURL(/\/account$/);
}
