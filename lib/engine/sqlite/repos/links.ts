/** Short links and their per-day click tallies over SQLite (migration 0006). */
import type Database from "better-sqlite3";
import type { DayClicks, Link, LinksRepo } from "../../../links/repo";
import { lazyStatement } from "./lazy";

interface LinkRow {
  code: string;
  id: string;
  account_id: string;
  destination: string;
  created_at_ms: number;
}

const toLink = (r: LinkRow): Link => ({ id: r.id, code: r.code, accountId: r.account_id, destination: r.destination, createdAtMs: r.created_at_ms });

export function linksRepo(db: Database.Database): LinksRepo {
  const byCode = lazyStatement(() => db.prepare("SELECT * FROM links WHERE code = ?"));
  const insert = lazyStatement(() =>
    db.prepare("INSERT INTO links (code, id, account_id, destination, created_at_ms) VALUES (@code, @id, @accountId, @destination, @createdAtMs)"),
  );
  const byAccount = lazyStatement(() => db.prepare("SELECT * FROM links WHERE account_id = ? ORDER BY created_at_ms DESC LIMIT ?"));
  const all = lazyStatement(() => db.prepare("SELECT * FROM links ORDER BY created_at_ms DESC LIMIT ?"));
  const addClicks = lazyStatement(() =>
    db.prepare(
      `INSERT INTO link_clicks (code, cycle, day, shard, clicks) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (code, cycle, day, shard) DO UPDATE SET clicks = clicks + excluded.clicks`,
    ),
  );
  // 31 days × 16 shards is the most one cycle can hold.
  const readClicks = lazyStatement(() => db.prepare("SELECT day, clicks FROM link_clicks WHERE code = ? AND cycle = ? LIMIT 512"));

  return {
    async getByCode(code) {
      const row = byCode().get(code) as LinkRow | undefined;
      return row ? toLink(row) : null;
    },
    async insert(link) {
      insert().run(link);
    },
    async listByAccount(accountId, limit) {
      return (byAccount().all(accountId, Math.min(limit, 200)) as LinkRow[]).map(toLink);
    },
    async listAll(limit) {
      return (all().all(Math.min(limit, 200)) as LinkRow[]).map(toLink);
    },
    async addClicks(code, cycle, day, shard, clicks) {
      addClicks().run(code, cycle, day, shard, clicks);
    },
    async readClicks(code, cycle) {
      return readClicks().all(code, cycle) as DayClicks[];
    },
  };
}
