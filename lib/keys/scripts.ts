import { z } from "zod";
import { actorSchema, recordAudit } from "../audit/scripts";
import { AppError } from "../errors";
import { mutation, query } from "../scripts/define";
import { idOf } from "../validation";
import type { ApiKey } from "./repo";

const accountId = idOf("acct", "an account id");
const keyId = idOf("key", "a key id");
const hash = z.string().regex(/^[0-9a-f]{64}$/, "a hex SHA-256 hash");

export const KEYS_PER_ACCOUNT_MAX = 20;
/**
 * Requests a minute a new key may make unless it says otherwise: 1,000 a
 * second on average, bursts of a minute's worth. High on purpose: a worker
 * charges every step of every job through its key, and the gate has its own
 * admission rate per account; this limit is for runaway clients.
 */
export const DEFAULT_RATE_PER_MINUTE = 60_000;
/** last-used is written at most this often per key: a busy key costs one write a minute, not one per request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export const ratePerMinute = z.number().int("a whole number of requests a minute").min(1, "at least 1 request a minute").max(100_000, "at most 100000 requests a minute");

/** What lists show of a key: never the hash. */
export const keySummary = z.object({
  id: z.string(),
  accountId: z.string(),
  prefix: z.string(),
  last4: z.string(),
  createdAtMs: z.number(),
  lastUsedAtMs: z.number().nullable(),
  revokedAtMs: z.number().nullable(),
  ratePerMinute: z.number(),
});

function summary(key: ApiKey): z.output<typeof keySummary> {
  const { hash: _hash, ...rest } = key;
  return rest;
}

export const newKeyFields = z.strictObject({
  hash,
  prefix: z.string().min(1).max(20),
  last4: z.string().length(4),
});

export const create = mutation(
  "keys.create",
  newKeyFields.extend({ accountId, ratePerMinute: ratePerMinute.optional(), actor: actorSchema }),
  keySummary,
  async (tx, { actor, ...args }) => {
    if (!(await tx.store.accounts.get(args.accountId))) throw new AppError("not_found", `No account ${args.accountId}.`);
    const existing = await tx.store.apiKeys.listByAccount(args.accountId, KEYS_PER_ACCOUNT_MAX + 1);
    if (existing.filter((k) => k.revokedAtMs === null).length >= KEYS_PER_ACCOUNT_MAX) {
      throw new AppError("conflict", `An account may have at most ${KEYS_PER_ACCOUNT_MAX} live API keys; revoke one first.`);
    }
    const key: ApiKey = {
      id: tx.newId("key"),
      ...args,
      ratePerMinute: args.ratePerMinute ?? DEFAULT_RATE_PER_MINUTE,
      createdAtMs: tx.nowMs,
      lastUsedAtMs: null,
      revokedAtMs: null,
    };
    await tx.store.apiKeys.insert(key);
    await recordAudit(tx, actor, "keys.create", key.id, key.accountId, { prefix: key.prefix, last4: key.last4, ratePerMinute: key.ratePerMinute });
    return summary(key);
  },
);

/** Whose key is this? null for an unknown or revoked key. */
export const authenticate = query(
  "keys.authenticate",
  z.strictObject({ hash }),
  z.object({ keyId: z.string(), accountId: z.string(), label: z.string(), ratePerMinute: z.number(), lastUsedAtMs: z.number().nullable() }).nullable(),
  async (tx, args) => {
    const key = await tx.store.apiKeys.getByHash(args.hash);
    if (!key || key.revokedAtMs !== null) return null;
    return { keyId: key.id, accountId: key.accountId, label: `key ${key.prefix}…${key.last4}`, ratePerMinute: key.ratePerMinute, lastUsedAtMs: key.lastUsedAtMs };
  },
);

/** Records that a key was used, unless it was already recorded within the last minute. */
export const touch = mutation("keys.touch", z.strictObject({ keyId }), z.object({ written: z.boolean() }), async (tx, args) => {
  const key = await tx.store.apiKeys.get(args.keyId);
  if (!key || key.revokedAtMs !== null) return { written: false };
  if (key.lastUsedAtMs !== null && tx.nowMs - key.lastUsedAtMs < LAST_USED_RESOLUTION_MS) return { written: false };
  await tx.store.apiKeys.patch(key.id, { lastUsedAtMs: tx.nowMs });
  return { written: true };
});

export const list = query("keys.list", z.strictObject({ accountId }), z.array(keySummary), async (tx, args) => {
  const keys = await tx.store.apiKeys.listByAccount(args.accountId, 100);
  return keys.map(summary);
});

/** Revokes at once; revoking twice answers the same. A key of another account is not found. */
export const revoke = mutation("keys.revoke", z.strictObject({ accountId, keyId, actor: actorSchema }), keySummary, async (tx, args) => {
  const key = await tx.store.apiKeys.get(args.keyId);
  if (!key || key.accountId !== args.accountId) throw new AppError("not_found", `No key ${args.keyId} on this account.`);
  if (key.revokedAtMs === null) {
    key.revokedAtMs = tx.nowMs;
    await tx.store.apiKeys.patch(key.id, { revokedAtMs: key.revokedAtMs });
    await recordAudit(tx, args.actor, "keys.revoke", key.id, key.accountId, { prefix: key.prefix, last4: key.last4 });
  }
  return summary(key);
});
