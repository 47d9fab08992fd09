import { defineTable } from "convex/server";
import { v } from "convex/values";

export const linksTables = {
  // Short links (Part B). Written by links.create; read by every redirect and the pages.
  links: defineTable({
    id: v.string(), // link_…
    code: v.string(), // unique, the <code> in /r/<code>
    accountId: v.string(),
    destination: v.string(), // absolute http(s) URL
    createdAtMs: v.number(),
  })
    .index("by_code", ["code"])
    .index("by_account", ["accountId", "createdAtMs"])
    .index("by_time", ["createdAtMs"]),
  // A link's clicks by cycle and UTC day, over 16 shard rows, for the stats
  // chart. Written in each click's mutation; display only (the ledger is the record).
  linkClicks: defineTable({
    code: v.string(),
    cycle: v.string(),
    day: v.string(), // YYYY-MM-DD
    shard: v.number(), // 0..15
    clicks: v.number(),
  }).index("by_shard", ["code", "cycle", "day", "shard"]),
};
