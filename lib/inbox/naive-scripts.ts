/**
 * The Engine Room's foil: the handler most apps write, which applies each
 * message as it arrives. Two separate transactions for a plan change (the
 * plan, then the allowance), no dedupe, no time guard, grants with a fresh key
 * every time, and a payment grants the allowance of whatever plan the account
 * is on when it arrives. It runs only for the Engine Room's test accounts,
 * behind the operator token (app/api/webhooks/kinde/naive).
 */
import { z } from "zod";
import { AppError } from "../errors";
import { mutation } from "../scripts/define";
import { planLabel, periodOf, topUpUnits } from "./allowance";

const accountId = z.string().regex(/^acct_[0-9a-z]{20}$/, "an account id (acct_ followed by 20 characters)");
const plan = z.string().regex(/^[a-z0-9_]{1,40}$/);

export const setPlan = mutation("inboxNaive.setPlan", z.strictObject({ accountId, plan }), z.object({ plan: z.string() }), async (tx, args) => {
  const account = await tx.store.accounts.get(args.accountId);
  if (!account) throw new AppError("not_found", `No account ${args.accountId}.`);
  await tx.store.accounts.patch(account.id, { plan: args.plan });
  return { plan: args.plan };
});

/** Adds `plan`'s allowance (or the account's current plan's, when `plan` is null) as a new row, every time. */
export const grant = mutation(
  "inboxNaive.grant",
  z.strictObject({ accountId, plan: plan.nullable() }),
  z.object({ plan: z.string(), units: z.number() }),
  async (tx, args) => {
    const account = await tx.store.accounts.get(args.accountId);
    if (!account) throw new AppError("not_found", `No account ${args.accountId}.`);
    const granted = args.plan ?? account.plan;
    const units = topUpUnits(granted) ?? 0;
    if (units > 0) {
      await tx.store.allowance.insertGrant({
        key: `naive:${tx.newId("rcp")}`,
        accountId: account.id,
        period: periodOf(tx.nowMs, account.cycleAnchorMs).name,
        plan: granted,
        units,
        reason: `${planLabel(granted)} allowance added on arrival (naive handler)`,
        inboxEventId: null,
        grantedAtMs: tx.nowMs,
      });
    }
    return { plan: granted, units };
  },
);
