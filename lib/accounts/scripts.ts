import { z } from "zod";
import { AppError } from "../errors";
import { mutation, query } from "../scripts/define";
import type { Tx } from "../store/port";
import type { Account } from "./repo";

export const LIST_LIMIT_MAX = 200;

const accountId = z.string().regex(/^acct_[0-9a-z]{20}$/, "an account id (acct_ followed by 20 characters)");
const kindeCustomerId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_\-]+$/, "letters, digits, '_' or '-'");

export const accountSchema = z.object({
  id: z.string(),
  name: z.string(),
  kindeCustomerId: z.string().nullable(),
  plan: z.string(),
  planChangedAtMs: z.number(),
  agreementId: z.string().nullable(),
  cycleAnchorMs: z.number().nullable(),
  billingStatus: z.string(),
  createdAtMs: z.number(),
});

export const createAccountArgs = z.strictObject({
  name: z.string().trim().min(1, "a name of 1 to 100 characters").max(100, "a name of 1 to 100 characters"),
  kindeCustomerId: kindeCustomerId.optional(),
  plan: z.string().regex(/^[a-z0-9_]{1,40}$/, "a plan key such as free or pro").optional(),
});

/** Creates an account. A Kinde customer id may belong to one account only. */
export const create = mutation("accounts.create", createAccountArgs, accountSchema, async (tx, args) => insertAccount(tx, args));

/**
 * Opens an account with its first API key in one transaction, so there is
 * never an account that nobody can call. The caller made the key and passes
 * only its hash.
 */
export const open = mutation(
  "accounts.open",
  createAccountArgs.extend({
    key: z.strictObject({
      hash: z.string().regex(/^[0-9a-f]{64}$/, "a hex SHA-256 hash"),
      prefix: z.string().min(1).max(20),
      last4: z.string().length(4),
    }),
  }),
  z.object({ account: accountSchema, keyId: z.string() }),
  async (tx, { key, ...args }) => {
    const account = await insertAccount(tx, args);
    const keyId = tx.newId("key");
    await tx.store.apiKeys.insert({ id: keyId, accountId: account.id, ...key, createdAtMs: tx.nowMs, lastUsedAtMs: null, revokedAtMs: null });
    return { account, keyId };
  },
);

async function insertAccount(tx: Tx, args: z.output<typeof createAccountArgs>): Promise<Account> {
  if (args.kindeCustomerId !== undefined) {
    const holder = await tx.store.accounts.getByKindeCustomerId(args.kindeCustomerId);
    if (holder) {
      throw new AppError("conflict", `kindeCustomerId ${args.kindeCustomerId} already belongs to another account`);
    }
  }
  const account: Account = {
    id: tx.newId("acct"),
    name: args.name,
    kindeCustomerId: args.kindeCustomerId ?? null,
    plan: args.plan ?? "free",
    planChangedAtMs: 0,
    agreementId: null,
    cycleAnchorMs: null,
    billingStatus: "ok",
    createdAtMs: tx.nowMs,
  };
  await tx.store.accounts.insert(account);
  return account;
}

export const get = query("accounts.get", z.strictObject({ id: accountId }), accountSchema.nullable(), async (tx, args) => {
  return tx.store.accounts.get(args.id);
});

export const getByKindeCustomerId = query(
  "accounts.getByKindeCustomerId",
  z.strictObject({ kindeCustomerId }),
  accountSchema.nullable(),
  async (tx, args) => tx.store.accounts.getByKindeCustomerId(args.kindeCustomerId),
);

export const list = query(
  "accounts.list",
  z.strictObject({
    limit: z.number().int().min(1).max(LIST_LIMIT_MAX).default(50),
    afterId: accountId.optional(),
  }),
  z.object({ accounts: z.array(accountSchema), nextAfterId: z.string().nullable() }),
  async (tx, args) => {
    const accounts = await tx.store.accounts.list({ limit: args.limit, afterId: args.afterId });
    const last = accounts.at(-1);
    return { accounts, nextAfterId: accounts.length === args.limit && last ? last.id : null };
  },
);
