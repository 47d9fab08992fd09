import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { migrate, openDatabase } from "../../lib/engine/sqlite/open";
import { migrations } from "../../lib/engine/sqlite/migrations";
import { tempDataDir } from "../contract/engines";

describe("migrations", () => {
  test("apply once, in order, and record their version", () => {
    const db = new Database(":memory:");
    const version = migrate(db, migrations);
    expect(version).toBe(migrations.at(-1)!.version);
    expect(migrate(db, migrations)).toBe(version);
    const rows = db.prepare("SELECT version FROM schema_migrations ORDER BY version").all() as { version: number }[];
    expect(rows.map((r) => r.version)).toEqual(migrations.map((m) => m.version));
  });

  test("a failing migration rolls back whole and stops the start with its name", () => {
    const db = new Database(":memory:");
    const broken = [...migrations, { version: 999, name: "broken", sql: "CREATE TABLE half (a INTEGER); SELECT * FROM no_such_table;" }];
    expect(() => migrate(db, broken)).toThrow(/Migration 999 \(broken\) failed and was rolled back/);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeUndefined();
    expect(db.prepare("SELECT max(version) AS v FROM schema_migrations").get()).toEqual({ v: migrations.at(-1)!.version });
  });

  test("an edited migration or one from a newer version stops the start", () => {
    const db = new Database(":memory:");
    migrate(db, migrations);
    const edited = migrations.map((m, i) => (i === 0 ? { ...m, sql: m.sql + "\n-- edited" } : m));
    expect(() => migrate(db, edited)).toThrow(/has changed since it was applied/);
    db.prepare("INSERT INTO schema_migrations VALUES (5000, 'future', 'x', 0)").run();
    expect(() => migrate(db, migrations)).toThrow(/newer version/);
  });

  test("a data folder that cannot be written stops the start with a clear message", () => {
    const dir = tempDataDir();
    const file = path.join(dir, "not-a-folder");
    fs.writeFileSync(file, "x");
    expect(() => openDatabase(file)).toThrow(/cannot be used/);
  });

  test("the embedded database runs in WAL mode; SQLite fsyncs inside COMMIT only with the inline flush (the engine fdatasyncs otherwise)", () => {
    const opened = openDatabase(tempDataDir());
    expect(opened.write.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(opened.write.pragma("synchronous", { simple: true })).toBe(1);
    opened.read.close();
    opened.write.close();
    opened.releaseLock();
  });

  test("the inline flush opens with synchronous=FULL", () => {
    const opened = openDatabase(tempDataDir(), { flush: "inline" });
    expect(opened.write.pragma("synchronous", { simple: true })).toBe(2);
    opened.read.close();
    opened.write.close();
    opened.releaseLock();
  });
});
