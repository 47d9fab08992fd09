import { z } from "zod";
import { AppError } from "../errors";
import { mutation, query } from "../scripts/define";

const accountId = z.string().regex(/^acct_[0-9a-z]{20}$/, "an account id (acct_ followed by 20 characters)");
const keyId = z.string().regex(/^key_[0-9a-z]{20}$/, "a key id (key_ followed by 20 characters)");
const hash = z.string().regex(/^[0-9a-f]{64}$/, "a hex SHA-256 hash");

export const KEYS_PER_ACCOUNT_MAX = 20;

/** What lists show of a key: never the hash. */
export const keySummary = z.object({
  id: z.string(),
  accountId: z.string(),
  prefix: z.string(),
  last4: z.string(),
  createdAtMs: z.number(),
  lastUsedAtMs: z.number().nullable(),
  revokedAtMs: z.number().nullable(),
});

export const create = mutation(
  "keys.create",
  z.strictObject({ accountId, hash, prefix: z.string().min(1).max(20), last4: z.string().length(4) }),
  keySummary,
  async (tx, args) => {
    if (!(await tx.store.accounts.get(args.accountId))) throw new AppError("not_found", `No account ${args.accountId}.`);
    const existing = await tx.store.apiKeys.listByAccount(args.accountId, KEYS_PER_ACCOUNT_MAX + 1);
    if (existing.filter((k) => k.revokedAtMs === null).length >= KEYS_PER_ACCOUNT_MAX) {
      throw new AppError("conflict", `An account may have at most ${KEYS_PER_ACCOUNT_MAX} live API keys; revoke one first.`);
    }
    const key = { id: tx.newId("key"), ...args, createdAtMs: tx.nowMs, lastUsedAtMs: null, revokedAtMs: null };
    await tx.store.apiKeys.insert(key);
    const { hash: _hash, ...summary } = key;
    return summary;
  },
);

/** Whose key is this? null for an unknown or revoked key. */
export const authenticate = query(
  "keys.authenticate",
  z.strictObject({ hash }),
  z.object({ keyId: z.string(), accountId: z.string() }).nullable(),
  async (tx, args) => {
    const key = await tx.store.apiKeys.getByHash(args.hash);
    if (!key || key.revokedAtMs !== null) return null;
    return { keyId: key.id, accountId: key.accountId };
  },
);

export const list = query("keys.list", z.strictObject({ accountId }), z.array(keySummary), async (tx, args) => {
  const keys = await tx.store.apiKeys.listByAccount(args.accountId, 100);
  return keys.map(({ hash: _hash, ...summary }) => summary);
});

/** Revokes at once; revoking twice answers the same. A key of another account is not found. */
export const revoke = mutation("keys.revoke", z.strictObject({ accountId, keyId }), keySummary, async (tx, args) => {
  const key = await tx.store.apiKeys.get(args.keyId);
  if (!key || key.accountId !== args.accountId) throw new AppError("not_found", `No key ${args.keyId} on this account.`);
  if (key.revokedAtMs === null) {
    key.revokedAtMs = tx.nowMs;
    await tx.store.apiKeys.patch(key.id, { revokedAtMs: key.revokedAtMs });
  }
  const { hash: _hash, ...summary } = key;
  return summary;
});
