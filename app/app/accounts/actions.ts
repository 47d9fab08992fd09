"use server";

import { revalidatePath } from "next/cache";
import * as accounts from "@/lib/accounts/scripts";
import { isAppError } from "@/lib/errors";
import { actorOf } from "@/lib/http/auth";
import { requireOperatorSession } from "@/lib/http/session";
import { getRuntime } from "@/lib/runtime";

export interface FormState {
  error: string | null;
  createdId: string | null;
}

/** Server actions check Origin against Host themselves, so this form is safe from cross-site posts. */
export async function createAccount(_previous: FormState, form: FormData): Promise<FormState> {
  const { principal } = await requireOperatorSession();
  const kindeCustomerId = String(form.get("kindeCustomerId") ?? "").trim();
  try {
    const account = await getRuntime().engine.run(accounts.create, {
      name: String(form.get("name") ?? ""),
      ...(kindeCustomerId ? { kindeCustomerId } : {}),
      actor: actorOf(principal),
    });
    revalidatePath("/app/accounts");
    return { error: null, createdId: account.id };
  } catch (error) {
    if (isAppError(error)) return { error: error.message, createdId: null };
    throw error;
  }
}
