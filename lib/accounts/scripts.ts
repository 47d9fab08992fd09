import { z } from "zod";
import { actorSchema, recordAudit } from "../audit/scripts";
import { AppError } from "../errors";
import { DEFAULT_RATE_PER_MINUTE, newKeyFields } from "../keys/scripts";
import { mutation, query } from "../scripts/define";
import type { Tx } from "../store/port";
import { anchorProblem } from "../usage/cycle";
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
export const create = mutation("accounts.create", createAccountArgs.extend({ actor: actorSchema.optional() }), accountSchema, async (tx, { actor, ...args }) => {
  const account = await insertAccount(tx, args);
  if (actor) await recordAudit(tx, actor, "accounts.create", account.id, account.id, { name: account.name });
  return account;
});

export const updateAccountArgs = z.strictObject({
  name: createAccountArgs.shape.name.optional(),
  /** null disconnects the account from Kinde. */
  kindeCustomerId: kindeCustomerId.nullable().optional(),
  /** The agreement start that anchors cycles (ms since 1970); null means UTC calendar months. */
  cycleAnchorMs: z.number().int("a whole number of milliseconds").min(0).max(8_640_000_000_000_000).nullable().optional(),
});

/**
 * Edits an account. The cycle anchor cannot move once the account has usage:
 * every ledger row is filed under a cycle name computed from the anchor, and
 * moving it would file old and new rows under different cycles.
 */
export const update = mutation(
  "accounts.update",
  updateAccountArgs.extend({ id: accountId, actor: actorSchema }),
  accountSchema,
  async (tx, { id, actor, ...changes }) => {
    const account = await tx.store.accounts.get(id);
    if (!account) throw new AppError("not_found", `No account ${id}.`);
    const patch: Partial<Account> = {};
    if (changes.name !== undefined && changes.name !== account.name) patch.name = changes.name;
    if (changes.kindeCustomerId !== undefined && changes.kindeCustomerId !== account.kindeCustomerId) {
      if (changes.kindeCustomerId !== null) {
        const holder = await tx.store.accounts.getByKindeCustomerId(changes.kindeCustomerId);
        if (holder && holder.id !== id) throw new AppError("conflict", `kindeCustomerId ${changes.kindeCustomerId} already belongs to another account`);
      }
      patch.kindeCustomerId = changes.kindeCustomerId;
    }
    if (changes.cycleAnchorMs !== undefined && changes.cycleAnchorMs !== account.cycleAnchorMs) {
      if (changes.cycleAnchorMs !== null) {
        const problem = anchorProblem(changes.cycleAnchorMs);
        if (problem) throw new AppError("invalid_input", `cycleAnchorMs: ${problem}`);
      }
      if (await tx.store.usage.hasAnyEntry(id)) {
        throw new AppError("conflict", "cycleAnchorMs: this account already has usage filed under its cycles; the anchor can no longer move");
      }
      patch.cycleAnchorMs = changes.cycleAnchorMs;
    }
    if (Object.keys(patch).length === 0) return account;
    await tx.store.accounts.patch(id, patch);
    const before = Object.fromEntries(Object.keys(patch).map((k) => [k, account[k as keyof Account]]));
    await recordAudit(tx, actor, "accounts.update", id, id, { before, after: patch });
    return { ...account, ...patch };
  },
);

/**
 * Opens an account with its first API key in one transaction, so there is
 * never an account that nobody can call. The caller made the key and passes
 * only its hash.
 */
export const open = mutation(
  "accounts.open",
  createAccountArgs.extend({ key: newKeyFields, actor: actorSchema.optional() }),
  z.object({ account: accountSchema, keyId: z.string() }),
  async (tx, { key, actor, ...args }) => {
    const account = await insertAccount(tx, args);
    const keyId = tx.newId("key");
    await tx.store.apiKeys.insert({
      id: keyId,
      accountId: account.id,
      ...key,
      createdAtMs: tx.nowMs,
      lastUsedAtMs: null,
      revokedAtMs: null,
      ratePerMinute: DEFAULT_RATE_PER_MINUTE,
    });
    // One line for both: two lines of one transaction share a time and would list in either order.
    if (actor) await recordAudit(tx, actor, "accounts.create", account.id, account.id, { name: account.name, firstKey: { keyId, prefix: key.prefix, last4: key.last4 } });
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
