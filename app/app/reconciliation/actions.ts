"use server";

import { revalidatePath } from "next/cache";
import { isAppError } from "@/lib/errors";
import { requireOperatorSession } from "@/lib/http/session";
import { runReconciler } from "@/lib/meter/reconciler";
import { runReporter } from "@/lib/meter/reporter";
import * as meter from "@/lib/meter/scripts";
import { getRuntime, orchestrationContext } from "@/lib/runtime";
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

function meterContext() {
  const runtime = getRuntime();
  return orchestrationContext(runtime.engine, runtime.provider);
}

/** Run now: the reconciler over one account (accountId set) or every account. */
export async function runReconcileAction(_previous: MeterFormState, form: FormData): Promise<MeterFormState> {
  await requireOperatorSession();
  const accountId = text(form, "accountId");
  try {
    const summary = await runReconciler(meterContext(), accountId ? { trigger: "on_demand", accountIds: [accountId] } : { trigger: "on_demand" });
    refresh();
    const said = `${summary.cycles} cycles checked, ${summary.evidenceRows} new evidence rows, ${summary.repairs} repaired and confirmed, ${summary.countersRebuilt} counters rebuilt.`;
    return summary.error ? { error: `The run ended with an error: ${summary.error}`, done: said } : { error: null, done: `Run ${summary.run.id}: ${said}` };
  } catch (error) {
    if (isAppError(error)) return { error: error.message, done: null };
    throw error;
  }
}

/** Sends the totals of marked cycles now (the reporter also runs every minute). */
export async function runReporterAction(_previous: MeterFormState, _form: FormData): Promise<MeterFormState> {
  await requireOperatorSession();
  const s = await runReporter(meterContext());
  refresh();
  return { error: null, done: `Reporter: ${s.taken} taken, ${s.written} written, ${s.failed} failed, ${s.rateLimited} throttled, ${s.skipped} put off, ${s.closed} closed (to review).` };
}

export async function resolveReviewAction(_previous: MeterFormState, form: FormData): Promise<MeterFormState> {
  await requireOperatorSession();
  try {
    await getRuntime().engine.run(meter.resolveReview, {
      accountId: text(form, "accountId"),
      feature: text(form, "feature"),
      cycle: text(form, "cycle"),
      resolution: text(form, "resolution"),
    });
    refresh();
    return { error: null, done: "Marked as reviewed." };
  } catch (error) {
    if (isAppError(error)) return { error: error.message, done: null };
    throw error;
  }
}

/** Corrects one ledger row (a new negative row in its cycle). */
export async function correctEntryAction(_previous: MeterFormState, form: FormData): Promise<MeterFormState> {
  await requireOperatorSession();
  try {
    const result = await getRuntime().engine.run(usage.correct, { entryKey: text(form, "entryKey"), reason: text(form, "reason") });
    refresh();
    return { error: null, done: result.recorded ? `Corrected: ${result.entry.units} in ${result.entry.cycle}.` : "That correction was already recorded." };
  } catch (error) {
    if (isAppError(error)) return { error: error.message, done: null };
    throw error;
  }
}
