"use server";

import { revalidatePath } from "next/cache";
import { isAppError } from "@/lib/errors";
import { actorOf } from "@/lib/http/auth";
import { requireOperatorSession } from "@/lib/http/session";
import * as meter from "@/lib/meter/scripts";
import { getRuntime } from "@/lib/runtime";

export interface ConnectFormState {
  error: string | null;
  done: string | null;
}

const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();

/** Connects an account (customer, agreement, agreement start); audited. The start is refused once the account has usage. */
export async function connectAccountAction(_previous: ConnectFormState, form: FormData): Promise<ConnectFormState> {
  const { principal } = await requireOperatorSession();
  const accountId = text(form, "accountId");
  const start = text(form, "agreementStart");
  const startMs = start === "" ? undefined : Date.parse(start.endsWith("Z") ? start : `${start}Z`);
  if (startMs !== undefined && Number.isNaN(startMs)) return { error: "The agreement start is not a date and time.", done: null };
  try {
    const connected = await getRuntime().engine.run(meter.connectAccount, {
      accountId,
      ...(text(form, "kindeCustomerId") ? { kindeCustomerId: text(form, "kindeCustomerId") } : {}),
      ...(text(form, "agreementId") ? { agreementId: text(form, "agreementId") } : {}),
      ...(startMs !== undefined ? { agreementStartMs: startMs } : {}),
      actor: actorOf(principal),
    });
    revalidatePath(`/app/accounts/${accountId}`);
    return {
      error: null,
      done: connected.cycleAnchorMs === null ? "Saved. Cycles are UTC calendar months." : `Saved. Cycles start on day ${new Date(connected.cycleAnchorMs).getUTCDate()} of each month.`,
    };
  } catch (error) {
    if (isAppError(error)) return { error: error.message, done: null };
    throw error;
  }
}
