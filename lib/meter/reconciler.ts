/**
 * The reconciler (nightly, on demand, and for queued requests) proves the
 * meter's copy against the ledger and keeps the proof.
 *
 * It pages through accounts (50 a page, 5 accounts at a time). For each of an
 * account's cycles it adds up the ledger rows in pages (streaming: memory does
 * not grow with the cycle), checks the sum against the sharded counter and
 * rebuilds the counter when two passes agree that it differs, then compares
 * the three numbers (ledger, last total sent, provider) with `decide`. An
 * open cycle that drifted is repaired with an absolute write of the ledger
 * total and read back; only a read-back equal to the ledger is "repaired and
 * confirmed", anything else ends the run with an error (after the other
 * accounts were reconciled, so one stuck meter cannot hide the rest). Every
 * cycle's finding is stored as evidence, unless its numbers are unchanged
 * since the last row.
 */
import * as accounts from "../accounts/scripts";
import type { Account } from "../accounts/repo";
import type { ResultOf } from "../scripts/define";
import { cycleNamed, isClosed } from "../usage/cycle";
import { asProviderError, messageOf, type MeterContext } from "./context";
import { decide } from "./decide";
import { cycleLockKey, withCycleLock } from "./lock";
import type { MeterCycle, RunTrigger } from "./repo";
import * as meter from "./scripts";

export const RECONCILE_ACCOUNTS_PAGE = 50;
export const RECONCILE_ACCOUNT_CONCURRENCY = 5;
const CYCLES_PAGE = 100;
/** Full passes over a cycle before the reconciler gives up on a counter check that keeps racing new rows. */
const CHECK_PASSES_MAX = 3;

export type Evidence = ResultOf<typeof meter.recordEvidence>["evidence"];

export interface ReconcileSummary {
  run: ResultOf<typeof meter.runStart>;
  accounts: number;
  cycles: number;
  evidenceRows: number;
  repairs: number;
  countersRebuilt: number;
  /** What a run over named accounts found, one entry per cycle (whether or not it added an evidence row); empty for a run over all accounts. */
  findings: { evidence: Evidence; added: boolean }[];
  /** Why the run ended with an error, or null. */
  error: string | null;
}

export class ReconcileError extends Error {
  constructor(readonly summary: ReconcileSummary) {
    super(`The reconciler run ${summary.run.id} ended with an error: ${summary.error}`);
    this.name = "ReconcileError";
  }
}

interface RunState {
  runId: string;
  accounts: number;
  cycles: number;
  evidenceRows: number;
  repairs: number;
  countersRebuilt: number;
  problems: string[];
  findings: { evidence: Evidence; added: boolean }[] | null;
}

/**
 * Reconciles every account (no `accountIds`) or the named ones. Returns the
 * run's summary; `summary.error` is set when a repair was not confirmed or a
 * cycle could not be reconciled. Use `runReconcilerOrThrow` where an error
 * must fail the caller (the schedules).
 */
export async function runReconciler(ctx: MeterContext, options: { trigger: RunTrigger; accountIds?: string[] }): Promise<ReconcileSummary> {
  const single = options.accountIds?.length === 1 ? options.accountIds[0]! : null;
  const run = await ctx.run(meter.runStart, { trigger: options.trigger, accountId: single });
  const state: RunState = { runId: run.id, accounts: 0, cycles: 0, evidenceRows: 0, repairs: 0, countersRebuilt: 0, problems: [], findings: options.accountIds ? [] : null };
  try {
    if (options.accountIds) {
      const found: Account[] = [];
      for (const id of options.accountIds) {
        const account = await ctx.run(accounts.get, { id });
        if (account) found.push(account);
        else state.problems.push(`No account ${id}.`);
      }
      await inPool(found, RECONCILE_ACCOUNT_CONCURRENCY, (account) => reconcileAccount(ctx, account, state));
    } else {
      let afterId: string | undefined;
      for (;;) {
        const page = await ctx.run(accounts.list, { limit: RECONCILE_ACCOUNTS_PAGE, afterId });
        await inPool(page.accounts, RECONCILE_ACCOUNT_CONCURRENCY, (account) => reconcileAccount(ctx, account, state));
        if (!page.nextAfterId) break;
        afterId = page.nextAfterId;
      }
    }
  } catch (error) {
    state.problems.push(`The run stopped: ${messageOf(error)}`);
  }
  const error = state.problems.length > 0 ? state.problems.join(" ").slice(0, 4000) : null;
  const counts = { accounts: state.accounts, cycles: state.cycles, evidenceRows: state.evidenceRows, repairs: state.repairs, countersRebuilt: state.countersRebuilt };
  await ctx.run(meter.runFinish, { runId: run.id, ...counts, error });
  ctx.log(`reconciler ${run.id}: ${state.accounts} accounts, ${state.cycles} cycles, ${state.evidenceRows} new evidence rows, ${state.repairs} repairs${error ? `; error: ${error}` : ""}`);
  return { run, ...counts, findings: state.findings ?? [], error };
}

export async function runReconcilerOrThrow(ctx: MeterContext, options: { trigger: RunTrigger; accountIds?: string[] }): Promise<ReconcileSummary> {
  const summary = await runReconciler(ctx, options);
  if (summary.error) throw new ReconcileError(summary);
  return summary;
}

/** The queued requests (meter.requestReconcile): up to 20 accounts per run, each reconciled once. */
export async function runReconcileRequests(ctx: MeterContext): Promise<ReconcileSummary | null> {
  const { requests } = await ctx.run(meter.takeReconcileRequests, { limit: 20 });
  if (requests.length === 0) return null;
  return runReconcilerOrThrow(ctx, { trigger: "requested", accountIds: requests.map((r) => r.accountId) });
}

async function reconcileAccount(ctx: MeterContext, account: Account, state: RunState): Promise<void> {
  state.accounts++;
  let after: { feature: string; cycle: string } | undefined;
  for (;;) {
    const { cycles } = await ctx.run(meter.cyclesOf, { accountId: account.id, limit: CYCLES_PAGE, after });
    for (const cycle of cycles) {
      try {
        await reconcileCycle(ctx, account, cycle, state);
      } catch (error) {
        state.problems.push(`${account.id} ${cycle.feature} ${cycle.cycle}: ${messageOf(error)}`);
      }
    }
    if (cycles.length < CYCLES_PAGE) return;
    const last = cycles.at(-1)!;
    after = { feature: last.feature, cycle: last.cycle };
  }
}

/** Adds up a cycle's ledger, page by page; only the running sum and the cursor are kept. */
export async function sumLedger(ctx: Pick<MeterContext, "run">, key: { accountId: string; feature: string; cycle: string }) {
  let units = 0;
  let rows = 0;
  let after: string | null = null;
  for (;;) {
    const page: ResultOf<typeof meter.sumLedgerPage> = await ctx.run(meter.sumLedgerPage, { ...key, after, limit: meter.LEDGER_PAGE_ROWS });
    units += page.units;
    rows += page.rows;
    after = page.cursor;
    if (page.done) return { units, rows, cursor: after };
  }
}

/** The ledger total and the counter as found, rebuilding the counter when two passes agree it differs. */
async function ledgerAndCounter(ctx: MeterContext, key: { accountId: string; feature: string; cycle: string }) {
  let expectDifference: number | null = null;
  for (let pass = 0; pass < CHECK_PASSES_MAX; pass++) {
    const paged = await sumLedger(ctx, key);
    const check: ResultOf<typeof meter.checkCounters> = await ctx.run(meter.checkCounters, { ...key, ledgerUnits: paged.units, after: paged.cursor, rebuildIfDifference: expectDifference });
    if (check.status === "busy") continue;
    if (check.status === "equal") return { ledgerUnits: check.ledgerUnits, counterUnits: check.counterUnits, rebuilt: false };
    if (check.status === "rebuilt") return { ledgerUnits: check.ledgerUnits, counterUnits: check.counterUnits, rebuilt: true };
    expectDifference = check.counterUnits - check.ledgerUnits;
  }
  throw new Error(`the ledger and its counter could not be checked in ${CHECK_PASSES_MAX} passes (rows kept arriving, or the difference kept changing)`);
}

async function reconcileCycle(ctx: MeterContext, account: Account, cycleRow: MeterCycle, state: RunState): Promise<void> {
  const key = { accountId: cycleRow.accountId, feature: cycleRow.feature, cycle: cycleRow.cycle };
  const providerAccount = { accountId: account.id, customerId: account.kindeCustomerId, agreementId: account.agreementId };
  const closed = isClosed(cycleNamed(key.cycle, account.cycleAnchorMs), ctx.nowMs());

  const { ledgerUnits, counterUnits, rebuilt } = await ledgerAndCounter(ctx, key);
  const current = await ctx.run(meter.cycleState, key);
  const sentUnits = current?.sentUnits ?? null;
  const lastReportFailed = current?.lastAttemptResult === "failed" || current?.lastAttemptResult === "rate_limited";

  let providerUnits: number | null = null;
  let unreadableReason: string | null = null;
  try {
    providerUnits = await ctx.provider.readUsage(providerAccount, key.feature, key.cycle);
  } catch (error) {
    if (!asProviderError(error)) throw error;
    unreadableReason = messageOf(error);
  }

  const decision = decide({ feature: key.feature, ledgerUnits, sentUnits, lastReportFailed, providerUnits, unreadableReason, closed });
  let readBackUnits: number | null = null;
  let repairWrite: { totalUnits: number; atMs: number; result: "ok" | "failed" | "rate_limited"; detail: string | null } | null = null;
  let outcome: "none" | "repaired_confirmed" | "repair_unconfirmed" | "review" = decision.verdict === "closed_cycle_drift" ? "review" : "none";
  let cause = decision.cause;

  if (decision.repairUnits !== null) {
    const repairUnits = decision.repairUnits;
    let problem: string | null = null;
    await withCycleLock(cycleLockKey(key.accountId, key.feature, key.cycle), async () => {
      try {
        await ctx.provider.setUsage(providerAccount, key.feature, key.cycle, repairUnits);
        repairWrite = { totalUnits: repairUnits, atMs: ctx.nowMs(), result: "ok", detail: null };
      } catch (error) {
        const providerError = asProviderError(error);
        if (!providerError) throw error;
        const throttled = providerError.kind === "retry_later" && providerError.retryAfterMs !== undefined;
        repairWrite = { totalUnits: repairUnits, atMs: ctx.nowMs(), result: throttled ? "rate_limited" : "failed", detail: messageOf(error) };
        problem = `the repair write of ${repairUnits} failed: ${messageOf(error)}`;
        return;
      }
      try {
        readBackUnits = await ctx.provider.readUsage(providerAccount, key.feature, key.cycle);
      } catch (error) {
        if (!asProviderError(error)) throw error;
        problem = `wrote ${repairUnits} but the meter could not be read back: ${messageOf(error)}`;
        return;
      }
      if (readBackUnits !== repairUnits) problem = `wrote ${repairUnits} but read back ${readBackUnits}`;
    });
    if (problem === null) {
      outcome = "repaired_confirmed";
      state.repairs++;
      cause = `${cause} Repaired and confirmed: wrote ${repairUnits} (the ledger total) and read ${repairUnits} back.`;
    } else {
      outcome = "repair_unconfirmed";
      cause = `${cause} The repair is not confirmed: ${problem}.`;
      state.problems.push(`${key.accountId} ${key.feature} ${key.cycle}: ${problem}.`);
    }
  }

  const stored = await ctx.run(meter.recordEvidence, {
    runId: state.runId,
    ...key,
    closed,
    ledgerUnits,
    counterUnits,
    countersRebuilt: rebuilt,
    sentUnits,
    lastReportFailed,
    providerUnits,
    verdict: decision.verdict,
    cause: cause.slice(0, 2000),
    repairUnits: decision.repairUnits,
    readBackUnits,
    outcome,
    repairWrite,
  });
  state.cycles++;
  if (rebuilt) state.countersRebuilt++;
  if (stored.added) state.evidenceRows++;
  state.findings?.push({ evidence: stored.evidence, added: stored.added });
}

/** Runs `work` over `items`, at most `concurrency` at a time. */
async function inPool<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
