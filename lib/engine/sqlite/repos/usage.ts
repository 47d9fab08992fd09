/** The usage ledger, counters and marks over SQLite (migrations 0002 and 0006). */
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

interface MarkRow {
  account_id: string;
  feature: string;
  cycle: string;
  marked_at_ms: number;
  due_at_ms: number;
}

const toMark = (r: MarkRow): UsageMark => ({
  accountId: r.account_id,
  feature: r.feature,
  cycle: r.cycle,
  markedAtMs: r.marked_at_ms,
  dueAtMs: r.due_at_ms,
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
    db.prepare(
      "INSERT INTO usage_marks (account_id, feature, cycle, marked_at_ms, due_at_ms) VALUES (@accountId, @feature, @cycle, @markedAtMs, @dueAtMs)",
    ),
  );
  const pageFirst = lazyStatement(() =>
    db.prepare("SELECT seq, units FROM usage_ledger WHERE account_id = ? AND feature = ? AND cycle = ? ORDER BY seq LIMIT ?").raw(),
  );
  const pageAfter = lazyStatement(() =>
    db.prepare("SELECT seq, units FROM usage_ledger WHERE account_id = ? AND feature = ? AND cycle = ? AND seq > ? ORDER BY seq LIMIT ?").raw(),
  );
  const recent = lazyStatement(() =>
    db.prepare("SELECT * FROM usage_ledger WHERE account_id = ? AND feature = ? AND cycle = ? ORDER BY seq DESC LIMIT ?"),
  );
  const dueMarks = lazyStatement(() => db.prepare("SELECT * FROM usage_marks WHERE due_at_ms <= ? ORDER BY due_at_ms LIMIT ?"));
  const deleteMark = lazyStatement(() => db.prepare("DELETE FROM usage_marks WHERE account_id = ? AND feature = ? AND cycle = ?"));
  const setMarkDue = lazyStatement(() => db.prepare("UPDATE usage_marks SET due_at_ms = ? WHERE account_id = ? AND feature = ? AND cycle = ?"));

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
      const row = getMark().get(accountId, feature, cycle) as MarkRow | undefined;
      return row ? toMark(row) : null;
    },
    async insertMark(mark) {
      insertMark().run(mark);
    },
    async hasAnyEntry(accountId) {
      return anyEntry().get(accountId) !== undefined;
    },
    async pageUnits(accountId, feature, cycle, after, limit) {
      const take = Math.min(limit, 5000);
      const rows = (after === null ? pageFirst().all(accountId, feature, cycle, take) : pageAfter().all(accountId, feature, cycle, Number(after), take)) as [
        number,
        number,
      ][];
      const last = rows.at(-1);
      return { units: rows.map((r) => r[1]), cursor: last ? String(last[0]) : after };
    },
    async recentEntries(accountId, feature, cycle, limit) {
      return (recent().all(accountId, feature, cycle, Math.min(limit, 200)) as EntryRow[]).map(toEntry);
    },
    async listDueMarks(nowMs, limit) {
      return (dueMarks().all(nowMs, Math.min(limit, 500)) as MarkRow[]).map(toMark);
    },
    async deleteMark(accountId, feature, cycle) {
      deleteMark().run(accountId, feature, cycle);
    },
    async setMarkDue(accountId, feature, cycle, dueAtMs) {
      setMarkDue().run(dueAtMs, accountId, feature, cycle);
    },
  };
}
