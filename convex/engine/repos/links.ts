/** Short links and their click tallies over Convex (convex/tables/links.ts). */
import type { Link, LinksRepo } from "../../../lib/links/repo";
import { strip, type Db, takeRows } from "./db";

export function linksRepo(db: Db): LinksRepo {
  return {
    async getByCode(code) {
      const doc = await db
        .query("links")
        .withIndex("by_code", (q) => q.eq("code", code))
        .unique();
      return doc ? (strip(doc) as Link) : null;
    },
    async insert(link) {
      await db.insert("links", link);
    },
    async listByAccount(accountId, limit) {
      return takeRows<Link>(db
        .query("links")
        .withIndex("by_account", (q) => q.eq("accountId", accountId))
        .order("desc")
        , limit, 200);
    },
    async listAll(limit) {
      return takeRows<Link>(db.query("links").withIndex("by_time").order("desc"), limit, 200);
    },
    async addClicks(code, cycle, day, shard, clicks) {
      const doc = await db
        .query("linkClicks")
        .withIndex("by_shard", (q) => q.eq("code", code).eq("cycle", cycle).eq("day", day).eq("shard", shard))
        .unique();
      if (doc) await db.patch(doc._id, { clicks: doc.clicks + clicks });
      else await db.insert("linkClicks", { code, cycle, day, shard, clicks });
    },
    async readClicks(code, cycle) {
      const docs = await db
        .query("linkClicks")
        .withIndex("by_shard", (q) => q.eq("code", code).eq("cycle", cycle))
        .take(512);
      return docs.map((d) => ({ day: d.day, clicks: d.clicks }));
    },
  };
}
