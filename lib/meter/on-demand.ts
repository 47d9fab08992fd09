/**
 * The meter's operator actions, one path for the API routes and the
 * dashboard: a reconcile run now (one account or all) and a reporter run now.
 * Both are orchestrations (they call the provider), not one transaction, so
 * the audit row is written right after the run, with what it did.
 */
import { audit } from "../audit/audit";
import type { Principal } from "../http/auth";
import { getRuntime, orchestrationContext } from "../runtime";
import { runReconciler, type ReconcileSummary } from "./reconciler";
import { runReporter, type ReporterSummary } from "./reporter";

function meterContext() {
  const runtime = getRuntime();
  return orchestrationContext(runtime.engine, runtime.provider);
}

/** Reconciles one account (or every account when `accountId` is null) now; audited with the run's counts. */
export async function reconcileNow(principal: Principal, accountId: string | null): Promise<ReconcileSummary> {
  const summary = await runReconciler(meterContext(), accountId ? { trigger: "on_demand", accountIds: [accountId] } : { trigger: "on_demand" });
  await audit(principal, "meter.reconcile", accountId ?? "all accounts", {
    runId: summary.run.id,
    accounts: summary.accounts,
    cycles: summary.cycles,
    evidenceRows: summary.evidenceRows,
    repairs: summary.repairs,
    countersRebuilt: summary.countersRebuilt,
    error: summary.error,
  });
  return summary;
}

/** Sends the totals of marked cycles now (the reporter also runs every minute); audited with its counts. */
export async function reportNow(principal: Principal): Promise<ReporterSummary> {
  const summary = await runReporter(meterContext());
  await audit(principal, "meter.report", "reporter", { ...summary });
  return summary;
}
