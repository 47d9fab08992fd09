/**
 * The usage ledger (Part B): append-only, one row per unit of work, keyed so a
 * retry can never count twice. Settled jobs (source "job"), clicks ("click")
 * and corrections ("correction", negative units) all land here.
 *
 * Counters: each (account, feature, cycle) total is split over 64 shard rows;
 * a write bumps one at random, so concurrent writers rarely touch one row.
 * Marks: a cycle whose total changed since it was last reported, marked once.
 *
 * Written by recordUsage (lib/usage/record.ts) inside gate, meter and inbox
 * scripts; read by the reporter, the reconciler and the pages.
 */
export type UsageSource = "click" | "job" | "correction";

export interface UsageEntry {
  /** Made by the caller before the first try and reused on every retry; unique. */
  key: string;
  accountId: string;
  feature: string;
  cycle: string;
  /** Whole units; negative only for corrections. */
  units: number;
  atMs: number;
  source: UsageSource;
  /** What the row is about: a job id, a link code, the key of a corrected row. */
  ref: string | null;
  reason: string | null;
}

export interface UsageMark {
  accountId: string;
  feature: string;
  cycle: string;
  markedAtMs: number;
  /** The reporter takes the mark from this time on: the mark's time, or later after a 429 (RateLimit-Reset). */
  dueAtMs: number;
}

/** One page of a cycle's ledger units in the order the rows were written. */
export interface UnitsPage {
  units: number[];
  /** Where the next page starts (pass it as `after`); the same `after` when the page is empty. */
  cursor: string | null;
}

export const COUNTER_SHARDS = 64;

export interface UsageRepo {
  getEntry(key: string): Promise<UsageEntry | null>;
  insertEntry(entry: UsageEntry): Promise<void>;
  /** Adds `units` to one shard row, creating it at zero first. */
  addToShard(accountId: string, feature: string, cycle: string, shard: number, units: number): Promise<void>;
  /** The shard rows of one counter (at most 64). */
  readShards(accountId: string, feature: string, cycle: string): Promise<number[]>;
  getMark(accountId: string, feature: string, cycle: string): Promise<UsageMark | null>;
  insertMark(mark: UsageMark): Promise<void>;

  /** Whether the account has any ledger row at all (one indexed probe); an anchor cannot move once it does. */
  hasAnyEntry(accountId: string): Promise<boolean>;
  /**
   * The units of at most `limit` (≤ 5,000) ledger rows of one cycle, in the
   * order they were written, after `after` (null: from the first row). Rows are
   * never changed or deleted, so paging on never misses or repeats one.
   */
  pageUnits(accountId: string, feature: string, cycle: string, after: string | null, limit: number): Promise<UnitsPage>;
  /** The newest rows of one cycle, newest first; at most `limit` (≤ 200). */
  recentEntries(accountId: string, feature: string, cycle: string, limit: number): Promise<UsageEntry[]>;
  /** Marks whose due time has come, earliest due first; at most `limit` (≤ 500). */
  listDueMarks(nowMs: number, limit: number): Promise<UsageMark[]>;
  deleteMark(accountId: string, feature: string, cycle: string): Promise<void>;
  setMarkDue(accountId: string, feature: string, cycle: string, dueAtMs: number): Promise<void>;
}
