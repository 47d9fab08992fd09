/**
 * The two engines the contract suite runs against. Each scenario is written
 * once and run with describe.each(engines): an engine feature that only one
 * side passes is a bug.
 *  - sqlite: the embedded engine over a fresh temporary data folder.
 *  - convex: the real Convex functions (convex/*.ts) in convex-test, the
 *    official Convex test runtime, called through the same ConvexEngine the
 *    app uses in production.
 */
import { convexTest } from "convex-test";
import { afterEach, beforeEach } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import schema from "../../convex/schema";
import { ConvexEngine, type ConvexCaller } from "../../lib/engine/convex/engine";
import { SqliteEngine } from "../../lib/engine/sqlite/engine";
import type { Engine } from "../../lib/engine/types";

export const TEST_SERVER_KEY = "test-server-key-0123456789abcdef0123456789";

export interface EngineUnderTest {
  engine: Engine;
  cleanup(): Promise<void>;
}

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "tollbooth-test-"));
}

export async function makeSqlite(): Promise<EngineUnderTest> {
  const dataDir = tempDataDir();
  const engine = new SqliteEngine({ dataDir });
  return {
    engine,
    async cleanup() {
      await engine.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const convexModules = import.meta.glob("../../convex/**/*.ts");

export async function makeConvex(): Promise<EngineUnderTest> {
  process.env.TOLLBOOTH_SERVER_KEY = TEST_SERVER_KEY;
  const t = convexTest(schema, convexModules);
  const engine = new ConvexEngine(t as unknown as ConvexCaller, TEST_SERVER_KEY, "convex-test");
  return { engine, cleanup: async () => {} };
}

export const engines: [string, () => Promise<EngineUnderTest>][] = [
  ["sqlite", makeSqlite],
  ["convex", makeConvex],
];

/**
 * A fresh engine for each test of the surrounding describe block:
 * `const engine = useEngine(make);` then `engine().run(...)` inside tests.
 */
export function useEngine(make: () => Promise<EngineUnderTest>): () => Engine {
  let under: EngineUnderTest | undefined;
  beforeEach(async () => {
    under = await make();
  });
  afterEach(async () => {
    await under?.cleanup();
    under = undefined;
  });
  return () => {
    if (!under) throw new Error("useEngine: no engine outside a test");
    return under.engine;
  };
}
