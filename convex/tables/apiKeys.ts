import { defineTable } from "convex/server";
import { v } from "convex/values";

export const apiKeysTables = {
  // API keys per account; only the SHA-256 hash is kept. Written by keys.*
  // mutations; read on every API request.
  apiKeys: defineTable({
    id: v.string(), // key_…
    accountId: v.string(),
    hash: v.string(),
    prefix: v.string(),
    last4: v.string(),
    createdAtMs: v.number(),
    lastUsedAtMs: v.union(v.number(), v.null()),
    revokedAtMs: v.union(v.number(), v.null()),
    ratePerMinute: v.number(), // requests a minute (token bucket in the Next.js server process)
  })
    .index("by_key_id", ["id"])
    .index("by_hash", ["hash"])
    .index("by_account", ["accountId", "createdAtMs"]),
};
