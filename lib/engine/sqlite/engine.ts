/**
 * The embedded engine: transaction scripts over SQLite in this process.
 * Mutations go through the group-commit writer; queries through a batched
 * read transaction on a second, read-only connection.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { makeId } from "../../ids";
import type { ArgsOf, ResultOf, Script } from "../../scripts/define";
import type { Tx } from "../../store/port";
import { parseInput } from "../../validation";
import type { Engine, EngineInfo } from "../types";
import { Batcher, type BatcherStats } from "./batcher";
import { WalFlusher, type SyncFn } from "./flusher";
import { openDatabase, type OpenedDatabase } from "./open";
import { createSqliteStore } from "./store";

export interface SqliteEngineOptions {
  dataDir: string;
  /** Default true. false runs one transaction per script (benchmark baseline). */
  groupCommit?: boolean;
  maxBatch?: number;
  synchronous?: "FULL" | "NORMAL";
  /** With FULL: "background" (default: fdatasync on the thread pool, answers wait for it) or "inline" (SQLite fsyncs inside COMMIT). */
  flush?: "background" | "inline";
  /** Tests only: replaces fdatasync, to hold or fail a flush. */
  syncFn?: SyncFn;
  clock?: () => number;
}

/**
 * Random bytes for ids from a pooled buffer: one getrandom call per 8 KiB
 * instead of one per id (a syscall per id was a quarter of a small script's
 * cost under load).
 */
const POOL_BYTES = 8192;
let pool = randomBytes(POOL_BYTES);
let poolOffset = 0;
function nodeRandom(n: number): Uint8Array {
  if (poolOffset + n > POOL_BYTES) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  const out = pool.subarray(poolOffset, poolOffset + n);
  poolOffset += n;
  return out;
}

export class SqliteEngine implements Engine {
  readonly kind = "sqlite" as const;
  private readonly opened: OpenedDatabase;
  private readonly writer: Batcher;
  private readonly reader: Batcher;
  private readonly flusher: WalFlusher | null = null;
  private readonly walFd: number | null = null;
  private closing: Promise<void> | null = null;

  constructor(readonly options: SqliteEngineOptions) {
    const clock = options.clock ?? Date.now;
    this.opened = openDatabase(options.dataDir, { synchronous: options.synchronous, flush: options.flush });
    if ((options.synchronous ?? "FULL") === "FULL" && options.flush !== "inline") {
      // The WAL exists once the database is open in WAL mode; fsync is per file, so a read-only descriptor serves.
      this.walFd = fs.openSync(`${this.opened.file}-wal`, "r");
      this.flusher = new WalFlusher(this.walFd, options.syncFn, (error) => console.error(`[tollbooth] ${error.message}`));
    }
    const writeStore = createSqliteStore(this.opened.write);
    const readStore = createSqliteStore(this.opened.read);
    const tx = (store: Tx["store"]) => (): Tx => ({ store, nowMs: clock(), newId: (prefix) => makeId(prefix, nodeRandom), random: Math.random });
    this.writer = new Batcher(this.opened.write, {
      groupCommit: options.groupCommit ?? true,
      maxBatch: options.maxBatch ?? 1024,
      readOnly: false,
      makeTx: tx(writeStore),
      flusher: this.flusher,
    });
    this.reader = new Batcher(this.opened.read, {
      groupCommit: true,
      maxBatch: 1024,
      readOnly: true,
      makeTx: tx(readStore),
      flusher: this.flusher,
    });
  }

  async run<S extends Script>(script: S, args: ArgsOf<S>): Promise<ResultOf<S>> {
    const parsed = parseInput(script.args, args, script.name);
    const batcher = script.kind === "mutation" ? this.writer : this.reader;
    return (await batcher.submit(script, parsed)) as ResultOf<S>;
  }

  async info(): Promise<EngineInfo> {
    const stats = this.writer.getStats();
    return {
      kind: "sqlite",
      migrationVersion: this.opened.migrationVersion,
      detail: {
        file: this.opened.file,
        batches: stats.batches,
        scripts: stats.scripts,
        largestBatch: stats.largestBatch,
        durability: this.flusher ? "fdatasync of the WAL on the thread pool before each answer" : this.options.synchronous === "NORMAL" ? "none per commit (NORMAL)" : "fsync inside COMMIT (FULL)",
        ...(this.flusher ? { walSyncs: this.flusher.stats().syncs } : {}),
      },
    };
  }

  writerStats(): BatcherStats {
    return this.writer.getStats();
  }

  /** For tests and the crash check: the raw connections. Never used by app code. */
  get connections(): Pick<OpenedDatabase, "write" | "read"> {
    return { write: this.opened.write, read: this.opened.read };
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.writer.close();
      await this.reader.close();
      this.opened.read.close();
      try {
        this.opened.write.pragma("wal_checkpoint(TRUNCATE)");
      } catch {
        // a checkpoint is an optimisation; closing still makes the WAL durable
      }
      this.opened.write.close();
      if (this.walFd !== null) fs.closeSync(this.walFd);
      this.opened.releaseLock();
    })();
    return this.closing;
  }
}
