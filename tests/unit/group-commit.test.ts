/**
 * Group commit: concurrent scripts share one transaction, each in its own
 * savepoint. One that throws loses only its own writes.
 */
import { afterEach, describe, expect, test } from "vitest";
import { z } from "zod";
import * as accounts from "../../lib/accounts/scripts";
import { SqliteEngine } from "../../lib/engine/sqlite/engine";
import type { SyncFn } from "../../lib/engine/sqlite/flusher";
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

  describe("durable answers: the WAL's fdatasync runs off the event loop, and nobody hears of a commit before it finished", () => {
    /** An fdatasync the test releases by hand (or fails). */
    function heldSync() {
      const pending: ((error: NodeJS.ErrnoException | null) => void)[] = [];
      const sync: SyncFn = (_fd, done) => void pending.push(done);
      return {
        sync,
        get waiting() {
          return pending.length;
        },
        release(error: NodeJS.ErrnoException | null = null) {
          for (const done of pending.splice(0)) done(error);
        },
      };
    }
    const settledYet = async (promise: Promise<unknown>) => {
      let settled = false;
      promise.then(() => (settled = true), () => (settled = true));
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      return settled;
    };

    test("a write is answered only after the fdatasync that followed its COMMIT, and a read that may see it waits too", async () => {
      const disk = heldSync();
      const engine = new SqliteEngine({ dataDir: tempDataDir(), syncFn: disk.sync });
      engines.push(engine);
      const made = engine.run(accounts.create, { name: "waits" });
      expect(await settledYet(made)).toBe(false);
      expect(disk.waiting).toBe(1);
      // Committed in SQLite (the raw connection sees it), but no caller has heard so, and a query waits.
      expect(engine.connections.read.prepare("SELECT count(*) AS n FROM accounts").get()).toEqual({ n: 1 });
      const listed = engine.run(accounts.list, {});
      expect(await settledYet(listed)).toBe(false);
      disk.release();
      expect((await made).name).toBe("waits");
      expect((await listed).accounts.map((a) => a.name)).toEqual(["waits"]);
    });

    test("the writer runs the next batch while an fdatasync is running, and one later fdatasync answers both", async () => {
      const disk = heldSync();
      const engine = new SqliteEngine({ dataDir: tempDataDir(), syncFn: disk.sync });
      engines.push(engine);
      const first = engine.run(accounts.create, { name: "first" });
      expect(await settledYet(first)).toBe(false);
      const second = engine.run(accounts.create, { name: "second" });
      const third = engine.run(accounts.create, { name: "third" });
      expect(await settledYet(second)).toBe(false);
      // The second batch committed although the first fdatasync has not come back.
      expect(engine.connections.read.prepare("SELECT count(*) AS n FROM accounts").get()).toEqual({ n: 3 });
      disk.release(); // the first fdatasync: answers only the first batch
      await first;
      expect(await settledYet(second)).toBe(false);
      expect(disk.waiting).toBe(1); // one fdatasync for the batches that committed meanwhile
      disk.release();
      await Promise.all([second, third]);
    });

    test("a failed fdatasync fails its callers and every later write and read: the server stops taking writes", async () => {
      const disk = heldSync();
      const engine = new SqliteEngine({ dataDir: tempDataDir(), syncFn: disk.sync });
      engines.push(engine);
      const made = engine.run(accounts.create, { name: "lost?" });
      expect(await settledYet(made)).toBe(false);
      const io = Object.assign(new Error("EIO: i/o error"), { code: "EIO" });
      disk.release(io);
      await expect(made).rejects.toThrow(/could not make a commit durable \(fdatasync of the WAL: EIO\)/);
      await expect(engine.run(accounts.create, { name: "later" })).rejects.toThrow(/stops taking writes/);
      await expect(engine.run(accounts.list, {})).rejects.toThrow(/stops taking writes/);
    });

    test("inline flush keeps SQLite's own fsync inside COMMIT (the benchmark's baseline)", async () => {
      const engine = new SqliteEngine({ dataDir: tempDataDir(), flush: "inline" });
      engines.push(engine);
      expect(engine.connections.write.pragma("synchronous", { simple: true })).toBe(2);
      expect((await engine.run(accounts.create, { name: "inline" })).name).toBe("inline");
    });
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
