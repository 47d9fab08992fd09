/**
 * The reporter (every minute): sends totals, not clicks. It takes up to 100
 * marked cycles (deleting their marks and reading each total from its
 * counters in one transaction), writes each total to the provider with an
 * absolute write, 10 at a time, and then, after the loop, logs every write
 * and marks again each cycle whose write failed (at once) or was throttled
 * (after RateLimit-Reset). A repeated report is harmless (it sets the same
 * number); a late usage row is harmless (it marks the cycle again).
 *
 * A closed cycle is never written: takeMarks puts it on the review list, and a
 * cycle that closes between the take and the write goes there too.
 */
import type { ResultOf } from "../scripts/define";
import * as meter from "./scripts";
import { inBatches, remarkAfter, type WriteOutcome } from "./decide";
import { asProviderError, messageOf, type MeterContext } from "./context";
import { cycleLockKey, withCycleLock } from "./lock";

/** Writes in flight at once. */
export const REPORT_WRITE_CONCURRENCY = 10;

export interface ReporterSummary {
  taken: number;
  written: number;
  failed: number;
  rateLimited: number;
  skipped: number;
  closed: number;
  leasesExpired: number;
}

type ReporterItem = ResultOf<typeof meter.takeMarks>["taken"][number];

type ReportResult = {
  accountId: string;
  feature: string;
  cycle: string;
  totalUnits: number;
  outcome: "ok" | "failed" | "rate_limited" | "skipped" | "closed";
  atMs: number;
  detail: string | null;
  remarkAtMs: number | null;
};

export async function runReporter(ctx: MeterContext, options: { limit?: number } = {}): Promise<ReporterSummary> {
  const { taken, closed, leasesExpired } = await ctx.run(meter.takeMarks, { limit: options.limit ?? meter.REPORT_TAKE_MAX });
  const results: ReportResult[] = [];
  // After a 429 the rest of this run is not sent: the provider said when to come back.
  let throttledUntilMs: number | null = null;
  for (const batch of inBatches(taken, REPORT_WRITE_CONCURRENCY)) {
    if (throttledUntilMs !== null) {
      const untilMs = throttledUntilMs;
      for (const item of batch) results.push(resultOf(item, { kind: "skipped", untilMs }, ctx.nowMs(), "Not sent: an earlier write in this run was throttled (429)."));
      continue;
    }
    const outcomes = await Promise.all(batch.map((item) => writeOne(ctx, item)));
    for (const result of outcomes) {
      if (result.outcome === "rate_limited" && result.remarkAtMs !== null) throttledUntilMs = Math.max(throttledUntilMs ?? 0, result.remarkAtMs);
      results.push(result);
    }
  }
  if (results.length > 0) await ctx.run(meter.recordReports, { results });
  const count = (outcome: ReportResult["outcome"]) => results.filter((r) => r.outcome === outcome).length;
  const summary = {
    taken: taken.length,
    written: count("ok"),
    failed: count("failed"),
    rateLimited: count("rate_limited"),
    skipped: count("skipped"),
    closed: closed + count("closed"),
    leasesExpired,
  };
  if (summary.taken > 0 || summary.closed > 0) {
    ctx.log(
      `reporter: ${summary.written} written, ${summary.failed} failed, ${summary.rateLimited} throttled, ${summary.skipped} put off, ${summary.closed} closed (review)`,
    );
  }
  return summary;
}

async function writeOne(ctx: MeterContext, item: ReporterItem): Promise<ReportResult> {
  if (ctx.nowMs() >= item.cycleEndMs) {
    return { ...keyOf(item), totalUnits: item.totalUnits, outcome: "closed", atMs: ctx.nowMs(), detail: null, remarkAtMs: null };
  }
  try {
    await withCycleLock(cycleLockKey(item.accountId, item.feature, item.cycle), () =>
      ctx.provider.setUsage(item.providerAccount, item.feature, item.cycle, item.totalUnits),
    );
    return resultOf(item, { kind: "ok" }, ctx.nowMs(), null);
  } catch (error) {
    const providerError = asProviderError(error);
    if (!providerError) ctx.log(`reporter: unexpected error writing ${item.accountId} ${item.feature} ${item.cycle}: ${messageOf(error)}`);
    return resultOf(item, writeOutcomeOf(error), ctx.nowMs(), messageOf(error));
  }
}

/** A provider error as the reporter sees it: a 429 (retry_later with a reset time), a retryable failure, or a refusal. */
export function writeOutcomeOf(error: unknown): WriteOutcome {
  const providerError = asProviderError(error);
  if (!providerError) return { kind: "failed", retryable: true };
  if (providerError.kind === "retry_later" && providerError.retryAfterMs !== undefined) return { kind: "rate_limited", retryAfterMs: providerError.retryAfterMs };
  if (providerError.kind === "retry_later" || providerError.kind === "unreadable") return { kind: "failed", retryable: true };
  return { kind: "failed", retryable: false };
}

function resultOf(item: ReporterItem, outcome: WriteOutcome, nowMs: number, detail: string | null): ReportResult {
  return {
    ...keyOf(item),
    totalUnits: item.totalUnits,
    outcome: outcome.kind,
    atMs: nowMs,
    detail,
    remarkAtMs: remarkAfter(outcome, nowMs),
  };
}

const keyOf = (item: ReporterItem) => ({ accountId: item.accountId, feature: item.feature, cycle: item.cycle });
