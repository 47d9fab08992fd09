/**
 * Opens the embedded database: takes the data folder's lock, sets the
 * durability pragmas and applies migrations. Any failure here stops the start
 * with a message that says what is wrong; nothing starts half-working.
 */
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { migrations, type Migration } from "./migrations";

export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartupError";
  }
}

export const DATABASE_FILE = "tollbooth.db";
const LOCK_FILE = "lock";

export interface OpenedDatabase {
  write: Database.Database;
  read: Database.Database;
  file: string;
  migrationVersion: number;
  releaseLock(): void;
}

export interface OpenOptions {
  synchronous?: "FULL" | "NORMAL";
  /** With FULL: "background" (default) fsyncs on the thread pool before answers; "inline" lets SQLite fsync inside COMMIT. */
  flush?: "background" | "inline";
}

export function openDatabase(dataDir: string, options: OpenOptions = {}): OpenedDatabase {
  ensureDataDir(dataDir);
  const releaseLock = takeLock(dataDir);
  const file = path.join(dataDir, DATABASE_FILE);
  let write: Database.Database | undefined;
  let read: Database.Database | undefined;
  try {
    write = new Database(file);
    write.pragma("journal_mode = WAL");
    // Durability of what a caller heard "committed" (see flusher.ts):
    //  - FULL with the background flush (the default): COMMIT writes the WAL
    //    without fsync (SQLite NORMAL) and the engine fdatasyncs the WAL on the
    //    thread pool before it answers anyone: power-loss safe, and the event
    //    loop never waits for the disk;
    //  - FULL inline: SQLite fsyncs inside COMMIT on this thread (the baseline);
    //  - NORMAL: no fsync per commit (tests and benchmarks where durability is not measured).
    const inline = (options.synchronous ?? "FULL") === "FULL" && options.flush === "inline";
    write.pragma(`synchronous = ${inline ? "FULL" : "NORMAL"}`);
    write.pragma("foreign_keys = ON");
    write.pragma("busy_timeout = 5000");
    // Checkpoints run on the writer between batches; a larger WAL means fewer of them.
    write.pragma("wal_autocheckpoint = 4000");
    const migrationVersion = migrate(write, migrations);
    read = new Database(file, { readonly: true });
    read.pragma("busy_timeout = 5000");
    return { write, read, file, migrationVersion, releaseLock };
  } catch (error) {
    read?.close();
    write?.close();
    releaseLock();
    if (error instanceof StartupError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new StartupError(`Could not open the database at ${file}: ${message}`);
  }
}

function ensureDataDir(dataDir: string): void {
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.accessSync(dataDir, fs.constants.W_OK | fs.constants.R_OK);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new StartupError(
      `The data folder ${dataDir} cannot be used (${message}). Set TOLLBOOTH_DATA_DIR to a folder this user can write.`,
    );
  }
}

/**
 * One server per data folder: group commit assumes it is the only writer. The
 * lock file holds the owner's pid; a lock whose process is gone (kill -9) is
 * taken over.
 */
function takeLock(dataDir: string): () => void {
  const lockPath = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, "wx", 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, "utf8") === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        throw new StartupError(`Could not lock the data folder ${dataDir}: ${(error as Error).message}`);
      }
      const owner = Number.parseInt(safeRead(lockPath), 10);
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new StartupError(
          `The data folder ${dataDir} is in use by process ${owner}. Stop that server, or set TOLLBOOTH_DATA_DIR to another folder.`,
        );
      }
      // Stale (its process is gone) or our own from an earlier handle: take it over.
      try {
        fs.unlinkSync(lockPath);
      } catch {
        // raced with another starter; the next attempt decides
      }
    }
  }
  throw new StartupError(`Could not lock the data folder ${dataDir}: another process keeps taking the lock.`);
}

function safeRead(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function checksum(sql: string): string {
  return createHash("sha256").update(sql).digest("hex").slice(0, 16);
}

/** Applies pending migrations in order, each in its own transaction. Returns the version now in force. */
export function migrate(db: Database.Database, list: readonly Migration[]): number {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    checksum TEXT NOT NULL,
    applied_at_ms INTEGER NOT NULL
  ) STRICT`);
  const applied = db.prepare("SELECT version, name, checksum FROM schema_migrations ORDER BY version").all() as {
    version: number;
    name: string;
    checksum: string;
  }[];
  const known = new Map(list.map((m) => [m.version, m]));
  for (const row of applied) {
    const migration = known.get(row.version);
    if (!migration) {
      throw new StartupError(
        `The database has migration ${row.version} (${row.name}), which this version of Tollbooth does not know. It was written by a newer version; run that version, or restore a backup.`,
      );
    }
    if (checksum(migration.sql) !== row.checksum) {
      throw new StartupError(
        `Migration ${row.version} (${row.name}) has changed since it was applied. Shipped migrations must not be edited; add a new one.`,
      );
    }
  }
  const done = new Set(applied.map((r) => r.version));
  const insert = db.prepare("INSERT INTO schema_migrations (version, name, checksum, applied_at_ms) VALUES (?, ?, ?, ?)");
  let version = applied.at(-1)?.version ?? 0;
  for (const migration of [...list].sort((a, b) => a.version - b.version)) {
    if (done.has(migration.version)) continue;
    try {
      db.transaction(() => {
        db.exec(migration.sql);
        insert.run(migration.version, migration.name, checksum(migration.sql), Date.now());
      }).immediate();
    } catch (error) {
      throw new StartupError(
        `Migration ${migration.version} (${migration.name}) failed and was rolled back: ${(error as Error).message}`,
      );
    }
    version = migration.version;
  }
  return version;
}
