/**
 * Group commit. Scripts that arrive while the writer is busy wait in a queue
 * and then run together in one SQLite transaction, each inside its own
 * savepoint: a script that throws rolls back only its savepoint and its error
 * reaches only its caller. One COMMIT (and one fsync) serves the whole batch,
 * and no caller hears "committed" before that COMMIT is on disk: with a
 * WalFlusher (the default, see flusher.ts) the answers wait for the fdatasync
 * that follows the COMMIT while the writer already runs the next batch.
 *
 * Scripts only await the store, whose SQLite methods are synchronous, so a
 * batch runs to its end in microtasks and nothing else touches the connection
 * meanwhile. A script must never await I/O (a provider call belongs in an
 * orchestration, outside any transaction).
 *
 * The same class runs read-only queries on the read connection, batched into
 * one read transaction so each query sees one snapshot.
 */
import type Database from "better-sqlite3";
import type { Script } from "../../scripts/define";
import type { Tx } from "../../store/port";
import type { WalFlusher } from "./flusher";

interface Pending {
  script: Script;
  args: unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export interface BatcherOptions {
  /** false: one transaction per script (the baseline the benchmark compares against). */
  groupCommit: boolean;
  /** Largest batch; a bound on how long one transaction holds the writer. */
  maxBatch: number;
  readOnly: boolean;
  makeTx(): Tx;
  /** Answers wait for this flusher's fdatasync; null: COMMIT itself was durable enough (synchronous FULL, or NORMAL on purpose). */
  flusher?: WalFlusher | null;
}

export interface BatcherStats {
  batches: number;
  scripts: number;
  largestBatch: number;
}

export class Batcher {
  private readonly queue: Pending[] = [];
  private draining = false;
  private closed = false;
  private readonly stats: BatcherStats = { batches: 0, scripts: 0, largestBatch: 0 };
  private readonly begin: Database.Statement;
  private readonly commit: Database.Statement;
  private readonly rollback: Database.Statement;
  private readonly savepoint: Database.Statement | null;
  private readonly release: Database.Statement | null;
  private readonly rollbackTo: Database.Statement | null;

  constructor(
    private readonly db: Database.Database,
    private readonly options: BatcherOptions,
  ) {
    this.begin = db.prepare(options.readOnly ? "BEGIN DEFERRED" : "BEGIN IMMEDIATE");
    this.commit = db.prepare("COMMIT");
    this.rollback = db.prepare("ROLLBACK");
    this.savepoint = options.readOnly ? null : db.prepare("SAVEPOINT script");
    this.release = options.readOnly ? null : db.prepare("RELEASE script");
    this.rollbackTo = options.readOnly ? null : db.prepare("ROLLBACK TO script");
  }

  submit(script: Script, args: unknown): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error("The database is closed."));
    return new Promise((resolve, reject) => {
      this.queue.push({ script, args, resolve, reject });
      if (!this.draining) {
        this.draining = true;
        // setImmediate lets every request that is already in flight join the batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  getStats(): BatcherStats {
    return { ...this.stats };
  }

  /** Waits for queued scripts to finish, then refuses new ones. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.draining) await new Promise((r) => setImmediate(r));
    await this.options.flusher?.idle();
  }

  /**
   * One batch per turn of the event loop: scripts run in microtasks, so a
   * loop over batches here would hold the thread until the queue is empty.
   * Yielding between batches lets the loop read sockets and accept
   * connections (Node accepts one per turn) while the queue refills, and
   * whatever arrived meanwhile joins the next batch.
   */
  private async drain(): Promise<void> {
    try {
      const size = this.options.groupCommit ? this.options.maxBatch : 1;
      await this.runBatch(this.queue.splice(0, size));
    } finally {
      if (this.queue.length > 0) setImmediate(() => void this.drain());
      else this.draining = false;
    }
  }

  private async runBatch(batch: Pending[]): Promise<void> {
    this.stats.batches++;
    this.stats.scripts += batch.length;
    if (batch.length > this.stats.largestBatch) this.stats.largestBatch = batch.length;

    const flusher = this.options.flusher ?? null;
    try {
      if (flusher?.failed) throw flusher.failed;
      this.begin.run();
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    }
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      for (const p of batch) {
        this.savepoint?.run();
        try {
          const value = await p.script.handler(this.options.makeTx(), p.args);
          this.release?.run();
          outcomes.push({ ok: true, value });
        } catch (error) {
          if (this.rollbackTo && this.release) {
            this.rollbackTo.run();
            this.release.run();
          }
          outcomes.push({ ok: false, value: error });
        }
      }
      this.commit.run();
    } catch (error) {
      // The transaction itself failed (disk full, I/O error): nothing in it
      // committed, so every caller in the batch is told so.
      try {
        if (this.db.inTransaction) this.rollback.run();
      } catch {
        // the connection already rolled back
      }
      for (const p of batch) p.reject(error);
      return;
    }
    const answer = () => {
      for (let i = 0; i < batch.length; i++) {
        const outcome = outcomes[i]!;
        if (outcome.ok) batch[i]!.resolve(outcome.value);
        else batch[i]!.reject(outcome.value);
      }
    };
    if (flusher === null) return answer();
    // A write batch waits for its own commit; a read batch for the newest commit it may have seen.
    const seq = this.options.readOnly ? flusher.latest() : flusher.committedNow();
    flusher.durable(seq).then(answer, (error: unknown) => {
      for (const p of batch) p.reject(error);
    });
  }
}
