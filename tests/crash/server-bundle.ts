/**
 * The production server for crash tests: server/main.ts bundled by scripts/build-server.mjs (the code `npm start`
 * runs, built the same way) into its own file under dist/, started with TOLLBOOTH_PAGES=off — the direct routes are
 * what is under test, and a Next.js page build would add minutes. Processes come from scripts/bench/lib/servers.ts.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { production, root, startServer, type ServerProcess } from "../../scripts/bench/lib/servers";
import { tempDataDir } from "../contract/engines";

export type { ServerProcess };

/** Builds a bundle; returns its path and a function that removes it (and its source map). */
function buildServerBundle(): { bundle: string; remove(): void } {
  const out = path.join("dist", `crash-test-${process.pid}-${randomBytes(4).toString("hex")}.mjs`);
  const result = spawnSync(process.execPath, [path.join(root, "scripts/build-server.mjs")], { cwd: root, env: { ...process.env, TOLLBOOTH_SERVER_OUT: out }, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`scripts/build-server.mjs failed:\n${result.stderr}${result.stdout}`);
  const bundle = path.join(root, out);
  return {
    bundle,
    remove() {
      fs.rmSync(bundle, { force: true });
      fs.rmSync(`${bundle}.map`, { force: true });
    },
  };
}

/**
 * For one test file: a data folder, and a bundle built before its tests; both removed after them. `start` runs the
 * server on that folder (kept across kills: the test restarts on it) and a free or given port; it is ready once
 * /api/ping answers.
 */
export function crashTestServer(): { dataDir: string; start(options?: { port?: number; env?: Record<string, string> }): Promise<ServerProcess> } {
  const dataDir = tempDataDir();
  let built: ReturnType<typeof buildServerBundle> | null = null;
  beforeAll(() => {
    built = buildServerBundle();
  });
  afterAll(() => {
    built?.remove();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    dataDir,
    start: (options = {}) =>
      startServer("Tollbooth (crash test)", production(built!.bundle), { dataDir, port: options.port, env: { TOLLBOOTH_PAGES: "off", ...options.env }, timeoutMs: 30_000 }),
  };
}
