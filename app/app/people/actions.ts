"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { newToken, sha256Hex } from "@/lib/auth/tokens";
import { actorOf } from "@/lib/http/auth";
import { formAction, parseForm, siteOrigin, type ActionState } from "@/lib/http/form-action";
import { requireOperatorSession } from "@/lib/http/session";
import * as people from "@/lib/people/scripts";
import { getRuntime } from "@/lib/runtime";
import { emailSchema, idOf } from "@/lib/validation";

/** Invites another operator: a one-time link, shown once. */
export async function inviteOperator(_previous: ActionState, form: FormData): Promise<ActionState> {
  const { principal } = await requireOperatorSession();
  return formAction(async () => {
    const input = parseForm(z.strictObject({ email: emailSchema }), form);
    const token = newToken();
    await getRuntime().engine.run(people.invite, { role: "operator", accountId: null, email: input.email, tokenHash: sha256Hex(token), actor: actorOf(principal) });
    revalidatePath("/app/people");
    return { notice: `Invite for ${input.email} made; it works once, for 7 days.`, secret: `${await siteOrigin()}/invite/${token}` };
  });
}

export async function setOperatorDisabled(_previous: ActionState, form: FormData): Promise<ActionState> {
  const { principal } = await requireOperatorSession();
  return formAction(async () => {
    const input = parseForm(z.strictObject({ userId: idOf("usr", "a user id"), disabled: z.enum(["true", "false"]) }), form);
    const user = await getRuntime().engine.run(people.setDisabled, { userId: input.userId, disabled: input.disabled === "true", actor: actorOf(principal) });
    revalidatePath("/app/people");
    return { notice: `${user.email} ${user.disabledAtMs === null ? "can sign in again" : "is disabled; their sessions have ended"}.` };
  });
}
