import { defineTable } from "convex/server";
import { v } from "convex/values";

const role = v.union(v.literal("operator"), v.literal("member"));

export const peopleTables = {
  // People who sign in: operators and account members. Written by people.*
  // mutations (setup, invites, password changes); read on every dashboard request.
  users: defineTable({
    id: v.string(), // usr_…
    email: v.string(), // lower-cased, unique
    name: v.string(),
    role,
    accountId: v.union(v.string(), v.null()), // members only
    passwordHash: v.union(v.string(), v.null()), // scrypt$N$r$p$salt$hash; null with Kinde
    kindeUserId: v.union(v.string(), v.null()),
    createdAtMs: v.number(),
    disabledAtMs: v.union(v.number(), v.null()),
  })
    .index("by_user_id", ["id"])
    .index("by_email", ["email"])
    .index("by_kinde_user_id", ["kindeUserId"])
    .index("by_role", ["role", "createdAtMs"])
    .index("by_account", ["accountId", "createdAtMs"]),
  // Server-side sessions: the cookie holds a random token, this row its hash.
  // Written by sign-in and sign-out; read on every dashboard request.
  sessions: defineTable({
    id: v.string(), // ses_…
    tokenHash: v.string(),
    userId: v.string(),
    createdAtMs: v.number(),
    expiresAtMs: v.number(),
    endedAtMs: v.union(v.number(), v.null()),
  })
    .index("by_session_id", ["id"])
    .index("by_token_hash", ["tokenHash"])
    .index("by_user", ["userId", "createdAtMs"]),
  // One-time invite links for operators and account members.
  invites: defineTable({
    id: v.string(), // inv_…
    tokenHash: v.string(),
    role,
    accountId: v.union(v.string(), v.null()),
    email: v.string(),
    invitedBy: v.string(),
    createdAtMs: v.number(),
    expiresAtMs: v.number(),
    usedAtMs: v.union(v.number(), v.null()),
    usedByUserId: v.union(v.string(), v.null()),
  })
    .index("by_invite_id", ["id"])
    .index("by_token_hash", ["tokenHash"])
    .index("by_account", ["accountId", "createdAtMs"]),
  // The first-run setup, once used: one row, which closes /setup for good.
  setup: defineTable({
    key: v.literal("first_operator"),
    doneAtMs: v.number(),
    userId: v.string(),
  }).index("by_key", ["key"]),
};
