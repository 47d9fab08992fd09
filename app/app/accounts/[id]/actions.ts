"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import * as accounts from "@/lib/accounts/scripts";
import { newToken, sha256Hex } from "@/lib/auth/tokens";
import { actorOf } from "@/lib/http/auth";
import { AppError } from "@/lib/errors";
import { formAction, formObject, parseForm, siteOrigin, type ActionState } from "@/lib/http/form-action";
import { requireOperatorSession } from "@/lib/http/session";
import * as keys from "@/lib/keys/scripts";
import { generateApiKey } from "@/lib/keys/token";
import * as people from "@/lib/people/scripts";
import { getRuntime } from "@/lib/runtime";
import { planLimitsForm } from "@/lib/standin/admin";
import * as gate from "@/lib/gate/scripts";
import * as standin from "@/lib/standin/scripts";
import { emailSchema, idOf } from "@/lib/validation";

const accountId = idOf("acct", "an account id");
const blankToNull = (value: unknown) => (typeof value === "string" && value.trim() === "" ? null : value);

const editForm = z.strictObject({
  accountId,
  name: accounts.createAccountArgs.shape.name,
  kindeCustomerId: z.preprocess(blankToNull, accounts.updateAccountArgs.shape.kindeCustomerId),
  /** A date (YYYY-MM-DD, midnight UTC) or blank for calendar months. */
  cycleAnchor: z.preprocess(
    blankToNull,
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "a date such as 2026-01-15, or blank for calendar months")
      .nullable(),
  ),
});

/** Edits name, Kinde customer id and cycle anchor (refused once usage exists). */
export async function updateAccount(_previous: ActionState, form: FormData): Promise<ActionState> {
  const { principal } = await requireOperatorSession();
  return formAction(async () => {
    const input = parseForm(editForm, form);
    const cycleAnchorMs = input.cycleAnchor === null ? null : Date.parse(`${input.cycleAnchor}T00:00:00Z`);
    if (cycleAnchorMs !== null && Number.isNaN(cycleAnchorMs)) throw new AppError("invalid_input", "cycleAnchor: not a real date");
    await getRuntime().engine.run(accounts.update, {
      id: input.accountId,
      name: input.name,
      kindeCustomerId: input.kindeCustomerId ?? null,
      cycleAnchorMs,
      actor: actorOf(principal),
    });
    revalidatePath(`/app/accounts/${input.accountId}`);
    return { notice: "Saved." };
  });
}

/**
 * The account's plan and limits on the stand-in: validated whole before
 * anything is written, then one transaction (standin.configure, audited).
 * The gate's cached limits are dropped after it so the next admission reads
 * the new limits (running holds keep their size).
 */
export async function updatePlanAndLimits(_previous: ActionState, form: FormData): Promise<ActionState> {
  const { principal } = await requireOperatorSession();
  return formAction(async () => {
    const input = planLimitsForm(formObject(form));
    const { engine, config } = getRuntime();
    if (config.provider !== "standin") throw new AppError("invalid_input", "planCode: plans and limits are set here only on the built-in stand-in; with Kinde they come from the customer's plan.");
    const result = await engine.run(standin.configure, { ...input, actor: actorOf(principal) });
    if (result.changed.length > 0) await engine.run(gate.dropLimit, { accountId: input.accountId });
    revalidatePath(`/app/accounts/${input.accountId}`);
    return { notice: result.changed.length === 0 ? "Nothing changed." : `Saved: ${result.changed.join(", ")}. The next admission reads the new limits.` };
  });
}

const createKeyForm = z.strictObject({
  accountId,
  ratePerMinute: z.preprocess((v) => (typeof v === "string" && /^\d{1,7}$/.test(v) ? Number(v) : v), keys.ratePerMinute),
});

/** A new API key: shown once on the page, only its hash kept. */
export async function createKey(_previous: ActionState, form: FormData): Promise<ActionState> {
  const { principal } = await requireOperatorSession();
  return formAction(async () => {
    const input = parseForm(createKeyForm, form);
    const made = generateApiKey();
    await getRuntime().engine.run(keys.create, { accountId: input.accountId, hash: made.hash, prefix: made.prefix, last4: made.last4, ratePerMinute: input.ratePerMinute, actor: actorOf(principal) });
    revalidatePath(`/app/accounts/${input.accountId}`);
    return { notice: `Key ${made.prefix}…${made.last4} created.`, secret: made.token };
  });
}

const revokeKeyForm = z.strictObject({ accountId, keyId: idOf("key", "a key id") });

export async function revokeKey(_previous: ActionState, form: FormData): Promise<ActionState> {
  const { principal } = await requireOperatorSession();
  return formAction(async () => {
    const input = parseForm(revokeKeyForm, form);
    const key = await getRuntime().engine.run(keys.revoke, { ...input, actor: actorOf(principal) });
    revalidatePath(`/app/accounts/${input.accountId}`);
    return { notice: `Key ${key.prefix}…${key.last4} revoked; it is refused from now on.` };
  });
}

const inviteForm = z.strictObject({ accountId, email: emailSchema });

/** Invites a member of this account: an invite link with a one-time token, shown once. */
export async function inviteMember(_previous: ActionState, form: FormData): Promise<ActionState> {
  const { principal } = await requireOperatorSession();
  return formAction(async () => {
    const input = parseForm(inviteForm, form);
    const token = newToken();
    await getRuntime().engine.run(people.invite, { role: "member", accountId: input.accountId, email: input.email, tokenHash: sha256Hex(token), actor: actorOf(principal) });
    revalidatePath(`/app/accounts/${input.accountId}`);
    return { notice: `Invite for ${input.email} made; it works once, for 7 days.`, secret: `${await siteOrigin()}/invite/${token}` };
  });
}

const disableForm = z.strictObject({ accountId, userId: idOf("usr", "a user id"), disabled: z.enum(["true", "false"]) });

export async function setMemberDisabled(_previous: ActionState, form: FormData): Promise<ActionState> {
  const { principal } = await requireOperatorSession();
  return formAction(async () => {
    const input = parseForm(disableForm, form);
    const members = await getRuntime().engine.run(people.listMembers, { accountId: input.accountId });
    if (!members.some((m) => m.id === input.userId)) return { notice: null };
    const user = await getRuntime().engine.run(people.setDisabled, { userId: input.userId, disabled: input.disabled === "true", actor: actorOf(principal) });
    revalidatePath(`/app/accounts/${input.accountId}`);
    return { notice: `${user.email} ${user.disabledAtMs === null ? "can sign in again" : "is disabled; their sessions have ended"}.` };
  });
}
