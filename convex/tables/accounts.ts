import { defineTable } from "convex/server";
import { v } from "convex/values";

export const accountsTables = {
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
};
