/**
 * A world for meter scenarios on either engine: the engine, the stand-in as
 * the provider (over the same engine, as in production), an orchestration
 * context, a clock the test moves (Date is faked, so both engines and the
 * stand-in read the same time), and a way to damage a counter on purpose.
 */
import { convexTest } from "convex-test";
import fs from "node:fs";
import { vi } from "vitest";
import schema from "../../convex/schema";
import * as accounts from "../../lib/accounts/scripts";
import { ConvexEngine, type ConvexCaller } from "../../lib/engine/convex/engine";
import { SqliteEngine } from "../../lib/engine/sqlite/engine";
import type { Engine } from "../../lib/engine/types";
import type { MeterContext } from "../../lib/meter/context";
import * as meter from "../../lib/meter/scripts";
import { StandinProvider } from "../../lib/standin/provider";
import * as standin from "../../lib/standin/scripts";
import { tempDataDir, TEST_SERVER_KEY } from "./engines";

export interface MeterWorld {
  name: string;
  engine: Engine;
  provider: StandinProvider;
  ctx: MeterContext;
  logs: string[];
  now(): number;
  setNow(ms: number): void;
  /** A new account, connected with this agreement start (null: calendar months). */
  account(agreementStartMs?: number | null): Promise<string>;
  /** Adds `units` to one of a counter's shard rows behind the scripts' back (a damaged counter). */
  damageCounter(accountId: string, feature: string, cycle: string, units: number): Promise<void>;
  /** The stand-in's meter for a cycle, read without going through fault switches. */
  meterTotal(accountId: string, feature: string, cycle: string): Promise<number>;
  fault(args: Parameters<typeof standin.setFault.handler>[1]): Promise<void>;
  clearFaults(): Promise<void>;
  cleanup(): Promise<void>;
}

const convexModules = import.meta.glob("../../convex/**/*.ts");

export const START_MS = Date.parse("2026-10-20T15:29:00Z");

export interface WorldOptions {
  /** The embedded engine's durability; NORMAL skips the fsync per commit, for long property runs. */
  synchronous?: "FULL" | "NORMAL";
}

export async function makeWorld(name: "sqlite" | "convex", startMs: number, options: WorldOptions = {}): Promise<MeterWorld> {
  vi.useFakeTimers({ toFake: ["Date"], now: startMs });
  let engine: Engine;
  let damage: MeterWorld["damageCounter"];
  let cleanup: () => Promise<void>;
  if (name === "sqlite") {
    const dataDir = tempDataDir();
    const sqlite = new SqliteEngine({ dataDir, clock: () => Date.now(), synchronous: options.synchronous });
    engine = sqlite;
    damage = async (accountId, feature, cycle, units) => {
      sqlite.connections.write
        .prepare(
          `INSERT INTO usage_counters (account_id, feature, cycle, shard, units) VALUES (?, ?, ?, 63, ?)
           ON CONFLICT (account_id, feature, cycle, shard) DO UPDATE SET units = units + excluded.units`,
        )
        .run(accountId, feature, cycle, units);
    };
    cleanup = async () => {
      await sqlite.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
  } else {
    process.env.TOLLBOOTH_SERVER_KEY = TEST_SERVER_KEY;
    const t = convexTest(schema, convexModules);
    engine = new ConvexEngine(t as unknown as ConvexCaller, TEST_SERVER_KEY, "convex-test");
    damage = async (accountId, feature, cycle, units) => {
      await t.run(async (ctx) => {
        const doc = await ctx.db
          .query("usageCounters")
          .withIndex("by_shard", (q) => q.eq("accountId", accountId).eq("feature", feature).eq("cycle", cycle))
          .first();
        if (doc) await ctx.db.patch(doc._id, { units: doc.units + units });
        else await ctx.db.insert("usageCounters", { accountId, feature, cycle, shard: 63, units });
      });
    };
    cleanup = async () => {};
  }
  const provider = new StandinProvider(engine, { callTimeoutMs: 1_000, wait: async () => {} });
  const logs: string[] = [];
  const ctx: MeterContext = { run: engine.run.bind(engine), provider, nowMs: () => Date.now(), log: (m) => logs.push(m) };
  return {
    name,
    engine,
    provider,
    ctx,
    logs,
    now: () => Date.now(),
    setNow: (ms) => vi.setSystemTime(ms),
    async account(agreementStartMs = null) {
      const { id } = await engine.run(accounts.create, { name: "Notch customer" });
      if (agreementStartMs !== null) await engine.run(meter.connectAccount, { accountId: id, agreementStartMs });
      return id;
    },
    damageCounter: damage,
    async meterTotal(accountId, featureCode, cycle) {
      return (await engine.run(standin.meterRecords, { accountId, featureCode, cycle, limit: 1 })).total;
    },
    async fault(args) {
      await engine.run(standin.setFault, args);
    },
    async clearFaults() {
      await engine.run(standin.clearFault, { kind: "all" });
    },
    async cleanup() {
      await cleanup();
      vi.useRealTimers();
    },
  };
}

export const worlds: [string, (startMs?: number) => Promise<MeterWorld>][] = [
  ["sqlite", (startMs = START_MS) => makeWorld("sqlite", startMs)],
  ["convex", (startMs = START_MS) => makeWorld("convex", startMs)],
];
