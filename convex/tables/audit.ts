import { defineTable } from "convex/server";
import { v } from "convex/values";

export const auditTables = {
  // Operator actions with who and when; append-only. Written by recordAudit()
  // inside the acting mutation or by audit.record; read by the Audit log page.
  auditLog: defineTable({
    id: v.string(), // aud_…
    sortKey: v.string(), // "<atMs, 15 digits>-<id>": time order, unique, the page cursor
    atMs: v.number(),
    actorKind: v.union(v.literal("operator"), v.literal("member"), v.literal("key"), v.literal("operator_token"), v.literal("system")),
    actorId: v.union(v.string(), v.null()),
    actorLabel: v.string(),
    action: v.string(),
    target: v.string(),
    accountId: v.union(v.string(), v.null()),
    detail: v.string(), // JSON text, ≤ 4 KiB, never secrets
  })
    .index("by_sort_key", ["sortKey"])
    .index("by_account", ["accountId", "sortKey"]),
};
