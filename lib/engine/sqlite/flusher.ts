/**
 * Durable acknowledgements without blocking the event loop.
 *
 * With `synchronous = FULL` SQLite fsyncs the WAL inside COMMIT, on the
 * thread that runs COMMIT: the one thread that also accepts connections and
 * parses requests. Under load every batch then stalls the whole server for
 * the length of an fsync, and a connection waiting to be accepted waits for
 * one such stall per connection ahead of it (Node accepts one connection per
 * turn of a busy event loop).
 *
 * So the writer runs with `synchronous = NORMAL` (COMMIT writes the WAL
 * frames to the page cache, no fsync) and this class fdatasyncs the WAL file
 * on libuv's thread pool. The rule that keeps durability what it was: nobody
 * hears about a commit, or reads its effects, before an fdatasync that began
 * after that commit has finished.
 *
 *  - A writer batch commits, takes the next commit number and hands its
 *    callers' answers to `durable(seq)`; the writer goes on with the next
 *    batch meanwhile (the next fsync covers both: fsync is per file).
 *  - A read batch waits for the commit number current when it finished, so
 *    a query never shows a client a write that could still be lost.
 *  - fsyncs coalesce: while one runs, later commits wait for the next one.
 *  - A failed fdatasync cannot be retried safely (the kernel may have dropped
 *    the dirty pages), so the flusher fails for good: every waiting and later
 *    caller gets the error and the server must stop taking writes.
 */
import fs from "node:fs";

export type SyncFn = (fd: number, done: (error: NodeJS.ErrnoException | null) => void) => void;

interface Waiter {
  seq: number;
  resolve(): void;
  reject(error: Error): void;
}

export class WalFlusher {
  private committed = 0;
  private durableSeq = 0;
  private syncing = false;
  private failure: Error | null = null;
  private waiters: Waiter[] = [];
  private idleWaiters: (() => void)[] = [];
  private syncs = 0;

  constructor(
    private readonly fd: number,
    private readonly sync: SyncFn = fs.fdatasync,
    private readonly onFailure: (error: Error) => void = () => {},
  ) {}

  /** Call right after a COMMIT returned: the number of that commit. */
  committedNow(): number {
    return ++this.committed;
  }

  /** The newest commit number (what a read that just ran may have seen). */
  latest(): number {
    return this.committed;
  }

  /** Resolves once commit `seq` is on disk; rejects if the disk refused. */
  durable(seq: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (seq <= this.durableSeq) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ seq, resolve, reject });
      this.kick();
    });
  }

  /** Resolves when no fdatasync is running or wanted (for close). */
  idle(): Promise<void> {
    if (!this.syncing && this.waiters.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  stats(): { commits: number; syncs: number } {
    return { commits: this.committed, syncs: this.syncs };
  }

  private kick(): void {
    if (this.syncing || this.failure) return;
    this.syncing = true;
    const target = this.committed;
    this.syncs++;
    this.sync(this.fd, (error) => {
      this.syncing = false;
      if (error) {
        this.failure = new Error(
          `The database could not make a commit durable (fdatasync of the WAL: ${error.code ?? error.message}). The server stops taking writes; restart it once the disk is healthy.`,
        );
        const waiting = this.waiters;
        this.waiters = [];
        for (const w of waiting) w.reject(this.failure);
        this.onFailure(this.failure);
      } else {
        this.durableSeq = target;
        const still: Waiter[] = [];
        for (const w of this.waiters) {
          if (w.seq <= target) w.resolve();
          else still.push(w);
        }
        this.waiters = still;
        if (still.length > 0) this.kick();
      }
      if (!this.syncing) {
        const idle = this.idleWaiters;
        this.idleWaiters = [];
        for (const resolve of idle) resolve();
      }
    });
  }

  /** True once an fdatasync failed: the engine refuses writes from then on. */
  get failed(): Error | null {
    return this.failure;
  }
}
