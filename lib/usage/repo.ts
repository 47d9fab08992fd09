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
}
