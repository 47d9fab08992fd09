/** The usage ledger, counters and marks over SQLite (migration 0002). */
import type Database from "better-sqlite3";
import type { UsageEntry, UsageMark, UsageRepo } from "../../../usage/repo";
import { lazyStatement } from "./lazy";

interface EntryRow {
  key: string;
  account_id: string;
  feature: string;
  cycle: string;
  units: number;
  at_ms: number;
  source: UsageEntry["source"];
  ref: string | null;
  reason: string | null;
}

const toEntry = (r: EntryRow): UsageEntry => ({
  key: r.key,
  accountId: r.account_id,
  feature: r.feature,
  cycle: r.cycle,
  units: r.units,
  atMs: r.at_ms,
  source: r.source,
  ref: r.ref,
  reason: r.reason,
});

export function usageRepo(db: Database.Database): UsageRepo {
  const getEntry = lazyStatement(() => db.prepare("SELECT * FROM usage_ledger WHERE key = ?"));
  const insertEntry = lazyStatement(() =>
    db.prepare(
      `INSERT INTO usage_ledger (key, account_id, feature, cycle, units, at_ms, source, ref, reason)
       VALUES (@key, @accountId, @feature, @cycle, @units, @atMs, @source, @ref, @reason)`,
    ),
  );
  const addToShard = lazyStatement(() =>
    db.prepare(
      `INSERT INTO usage_counters (account_id, feature, cycle, shard, units) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (account_id, feature, cycle, shard) DO UPDATE SET units = units + excluded.units`,
    ),
  );
  const readShards = lazyStatement(() =>
    db.prepare("SELECT units FROM usage_counters WHERE account_id = ? AND feature = ? AND cycle = ? LIMIT 64").pluck(),
  );
  const getMark = lazyStatement(() => db.prepare("SELECT * FROM usage_marks WHERE account_id = ? AND feature = ? AND cycle = ?"));
  const anyEntry = lazyStatement(() => db.prepare("SELECT 1 FROM usage_ledger WHERE account_id = ? LIMIT 1").pluck());
  const insertMark = lazyStatement(() =>
    db.prepare("INSERT INTO usage_marks (account_id, feature, cycle, marked_at_ms) VALUES (@accountId, @feature, @cycle, @markedAtMs)"),
  );

  return {
    async getEntry(key) {
      const row = getEntry().get(key) as EntryRow | undefined;
      return row ? toEntry(row) : null;
    },
    async insertEntry(entry) {
      insertEntry().run(entry);
    },
    async addToShard(accountId, feature, cycle, shard, units) {
      addToShard().run(accountId, feature, cycle, shard, units);
    },
    async readShards(accountId, feature, cycle) {
      return readShards().all(accountId, feature, cycle) as number[];
    },
    async getMark(accountId, feature, cycle) {
      const row = getMark().get(accountId, feature, cycle) as
        | { account_id: string; feature: string; cycle: string; marked_at_ms: number }
        | undefined;
      return row ? ({ accountId: row.account_id, feature: row.feature, cycle: row.cycle, markedAtMs: row.marked_at_ms } satisfies UsageMark) : null;
    },
    async insertMark(mark) {
      insertMark().run(mark);
    },
    async hasAnyEntry(accountId) {
      return anyEntry().get(accountId) !== undefined;
    },
  };
}
