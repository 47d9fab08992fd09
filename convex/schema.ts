/**
 * The Convex engine's tables: the same tables and indexes as the SQLite
 * migrations (lib/engine/sqlite/migrations), field names in camelCase.
 * Each index serves one repository method in convex/engine/store.ts.
 */
import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  // The app's billed customers. Written by accounts.* scripts and the inbox's
  // plan handlers; read by every part.
  accounts: defineTable({
    id: v.string(), // acct_…
    name: v.string(),
    kindeCustomerId: v.union(v.string(), v.null()),
    plan: v.string(),
    planChangedAtMs: v.number(), // event time of the plan change in force (the inbox's guard)
    agreementId: v.union(v.string(), v.null()),
    cycleAnchorMs: v.union(v.number(), v.null()), // null: UTC calendar months
    billingStatus: v.string(),
    createdAtMs: v.number(),
  })
    .index("by_account_id", ["id"])
    .index("by_kinde_customer_id", ["kindeCustomerId"]),
});
