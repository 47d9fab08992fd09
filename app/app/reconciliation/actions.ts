"use server";

import { revalidatePath } from "next/cache";
import { isAppError } from "@/lib/errors";
import { actorOf } from "@/lib/http/auth";
import { requireOperatorSession } from "@/lib/http/session";
import { reconcileNow, reportNow } from "@/lib/meter/on-demand";
import * as meter from "@/lib/meter/scripts";
import { getRuntime } from "@/lib/runtime";
import * as usage from "@/lib/usage/scripts";

export interface MeterFormState {
  error: string | null;
  done: string | null;
}

function refresh() {
  revalidatePath("/app/reconciliation", "layout");
  revalidatePath("/app/links", "layout");
  revalidatePath("/app/accounts", "layout");
}

const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();

/** Run now: the reconciler over one account (accountId set) or every account; audited. */
export async function runReconcileAction(_previous: MeterFormState, form: FormData): Promise<MeterFormState> {
  const { principal } = await requireOperatorSession();
  const accountId = text(form, "accountId");
  try {
    const summary = await reconcileNow(principal, accountId || null);
    refresh();
    const said = `${summary.cycles} cycles checked, ${summary.evidenceRows} new evidence rows, ${summary.repairs} repaired and confirmed, ${summary.countersRebuilt} counters rebuilt.`;
    return summary.error ? { error: `The run ended with an error: ${summary.error}`, done: said } : { error: null, done: `Run ${summary.run.id}: ${said}` };
  } catch (error) {
    if (isAppError(error)) return { error: error.message, done: null };
    throw error;
  }
}

/** Sends the totals of marked cycles now (the reporter also runs every minute); audited. */
export async function runReporterAction(_previous: MeterFormState, _form: FormData): Promise<MeterFormState> {
  const { principal } = await requireOperatorSession();
  const s = await reportNow(principal);
  refresh();
  return { error: null, done: `Reporter: ${s.taken} taken, ${s.written} written, ${s.failed} failed, ${s.rateLimited} throttled, ${s.skipped} put off, ${s.closed} closed (to review).` };
}

export async function resolveReviewAction(_previous: MeterFormState, form: FormData): Promise<MeterFormState> {
  const { principal } = await requireOperatorSession();
  try {
    await getRuntime().engine.run(meter.resolveReview, {
      accountId: text(form, "accountId"),
      feature: text(form, "feature"),
      cycle: text(form, "cycle"),
      resolution: text(form, "resolution"),
      actor: actorOf(principal),
    });
    refresh();
    return { error: null, done: "Marked as reviewed." };
  } catch (error) {
    if (isAppError(error)) return { error: error.message, done: null };
    throw error;
  }
}

/** Corrects one ledger row (a new negative row in its cycle); audited in the same transaction. */
export async function correctEntryAction(_previous: MeterFormState, form: FormData): Promise<MeterFormState> {
  const { principal } = await requireOperatorSession();
  try {
    const result = await getRuntime().engine.run(usage.correct, { entryKey: text(form, "entryKey"), reason: text(form, "reason"), actor: actorOf(principal) });
    refresh();
    return { error: null, done: result.recorded ? `Corrected: ${result.entry.units} in ${result.entry.cycle}.` : "That correction was already recorded." };
  } catch (error) {
    if (isAppError(error)) return { error: error.message, done: null };
    throw error;
  }
}
