/**
 * Group commit: concurrent scripts share one transaction, each in its own
 * savepoint. One that throws loses only its own writes.
 */
import { afterEach, describe, expect, test } from "vitest";
import { z } from "zod";
import * as accounts from "../../lib/accounts/scripts";
import { SqliteEngine } from "../../lib/engine/sqlite/engine";
import { mutation } from "../../lib/scripts/define";
import { tempDataDir } from "../contract/engines";

/** Creates an account, then throws: its insert must vanish with its savepoint. */
const createThenThrow = mutation("test.createThenThrow", z.object({ name: z.string() }), z.null(), async (tx, args) => {
  await tx.store.accounts.insert({
    id: tx.newId("acct"),
    name: args.name,
    kindeCustomerId: null,
    plan: "free",
    planChangedAtMs: 0,
    agreementId: null,
    cycleAnchorMs: null,
    billingStatus: "ok",
    createdAtMs: tx.nowMs,
  });
  throw new Error(`refused ${args.name}`);
});

const engines: SqliteEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
});

describe("group commit", () => {
  test("200 concurrent scripts, one of which throws: all others commit, the thrower's writes are absent", async () => {
    const engine = new SqliteEngine({ dataDir: tempDataDir() });
    engines.push(engine);
    const calls = Array.from({ length: 200 }, (_, i) =>
      i === 137 ? engine.run(createThenThrow, { name: "thrower" }) : engine.run(accounts.create, { name: `ok-${i}` }),
    );
    const results = await Promise.allSettled(calls);

    const rejected = results.filter((r) => r.status === "rejected");
    expect(rejected).toHaveLength(1);
    expect((rejected[0] as PromiseRejectedResult).reason).toMatchObject({ message: "refused thrower" });
    expect(results[137]!.status).toBe("rejected");

    const rows = engine.connections.read.prepare("SELECT name FROM accounts").all() as { name: string }[];
    expect(rows).toHaveLength(199);
    expect(rows.some((r) => r.name === "thrower")).toBe(false);
    // They really were grouped: far fewer transactions than scripts.
    const stats = engine.writerStats();
    expect(stats.scripts).toBe(200);
    expect(stats.batches).toBeLessThan(20);
  });

  test("a failed COMMIT fails every caller in the batch and keeps nothing of it", async () => {
    const engine = new SqliteEngine({ dataDir: tempDataDir() });
    engines.push(engine);
    await engine.run(accounts.create, { name: "before" });
    // A deferred foreign-key violation is only detected at COMMIT.
    const write = engine.connections.write;
    write.exec("CREATE TABLE child (parent TEXT REFERENCES accounts(id) DEFERRABLE INITIALLY DEFERRED)");
    const breakCommit = mutation("test.breakCommit", z.object({}), z.null(), async () => {
      write.prepare("INSERT INTO child (parent) VALUES ('acct_missing')").run();
      return null;
    });
    const results = await Promise.allSettled([
      engine.run(accounts.create, { name: "same-batch-1" }),
      engine.run(breakCommit, {}),
      engine.run(accounts.create, { name: "same-batch-2" }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    const names = (engine.connections.read.prepare("SELECT name FROM accounts").all() as { name: string }[]).map((r) => r.name);
    expect(names).toEqual(["before"]);
    // The writer recovers: the next script commits.
    await engine.run(accounts.create, { name: "after" });
    expect(engine.connections.read.prepare("SELECT count(*) AS n FROM accounts").get()).toEqual({ n: 2 });
  });

  test("with group commit off, every script is its own transaction", async () => {
    const engine = new SqliteEngine({ dataDir: tempDataDir(), groupCommit: false });
    engines.push(engine);
    await Promise.all(Array.from({ length: 50 }, (_, i) => engine.run(accounts.create, { name: `n${i}` })));
    expect(engine.writerStats()).toMatchObject({ scripts: 50, batches: 50 });
  });

  test("a second engine on the same data folder in another process is refused; a stale lock is taken over", async () => {
    const dataDir = tempDataDir();
    const { writeFileSync } = await import("node:fs");
    // pid 1 is always alive: the folder looks in use by another process.
    writeFileSync(`${dataDir}/lock`, "1");
    expect(() => new SqliteEngine({ dataDir })).toThrow(/in use by process 1/);
    // A pid that cannot exist: the lock is stale and is taken over.
    writeFileSync(`${dataDir}/lock`, "2147483646");
    const engine = new SqliteEngine({ dataDir });
    engines.push(engine);
    await engine.run(accounts.create, { name: "ok" });
  });
});
