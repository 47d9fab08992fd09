/**
 * The meter's pure decisions. `decide` compares the three numbers the
 * reconciler gathered; `remarkAfter` says when a cycle the reporter could not
 * write comes back; `standingOf` is what makes evidence rows unique. Time and
 * every number come in as arguments; the scripts and orchestrations apply
 * what these return.
 *
 * The ledger is the record. `decide` never trusts the meter over the ledger:
 * when they differ in an open cycle, the repair is always the ledger total.
 */
import type { Verdict } from "./repo";

export interface Evidence {
  feature: string;
  /** The sum of the cycle's ledger rows. */
  ledgerUnits: number;
  /** The last total a write set successfully; null: nothing was ever sent. */
  sentUnits: number | null;
  /** Whether the last write attempt failed (a failure or a 429). */
  lastReportFailed: boolean;
  /** The provider's total; null when it could not be read (never a guess of zero). */
  providerUnits: number | null;
  /** Why the provider could not be read, when it could not. */
  unreadableReason?: string | null;
  /** The cycle has ended: its meter is never written. */
  closed: boolean;
}

export interface Decision {
  verdict: Verdict;
  /** The absolute total to write, or null: nothing is written. */
  repairUnits: number | null;
  /** Why, in words that follow the evidence. */
  cause: string;
}

/** The verdicts in order of precedence: exactly one applies. */
export const VERDICTS: readonly Verdict[] = ["unreadable", "match", "closed_cycle_drift", "over_billed", "under_billed"];

export function decide(e: Evidence): Decision {
  if (e.providerUnits === null) {
    const why = e.unreadableReason ? `: ${e.unreadableReason}` : "";
    return {
      verdict: "unreadable",
      repairUnits: null,
      cause: `The provider's meter could not be read${why}. Nothing was compared or written; an unread meter is never taken as zero.`,
    };
  }
  if (e.providerUnits === e.ledgerUnits) return { verdict: "match", repairUnits: null, cause: matchCause(e, e.providerUnits) };
  const drift = driftCause(e, e.providerUnits);
  if (e.closed) {
    return {
      verdict: "closed_cycle_drift",
      repairUnits: null,
      cause: `${drift} The cycle has closed (meter ${e.providerUnits}, ledger ${e.ledgerUnits}): a closed cycle is not written, so it is on the review list for a person.`,
    };
  }
  return { verdict: e.providerUnits > e.ledgerUnits ? "over_billed" : "under_billed", repairUnits: e.ledgerUnits, cause: drift };
}

function matchCause(e: Evidence, provider: number): string {
  if (e.sentUnits === e.ledgerUnits) return `The ledger, the last report and the meter agree at ${provider}.`;
  if (e.sentUnits === null) return `The meter equals the ledger at ${provider}; no report of this cycle is recorded.`;
  return `The meter equals the ledger at ${provider}, though the last total sent was ${e.sentUnits}: the meter moved without a report from the app and happens to agree.`;
}

/** Why the meter and the ledger differ, following the evidence. */
function driftCause(e: Evidence, provider: number): string {
  if (e.lastReportFailed) return "The last report failed, so the meter kept an older total.";
  if (e.sentUnits === null) {
    return provider === 0
      ? "No total has been reported for this cycle yet: a report never arrived."
      : `The meter holds ${provider} though the app never reported this cycle: something else wrote to the meter.`;
  }
  if (provider === e.sentUnits) {
    const late = e.feature === "clicks" ? "A late click or a correction arrived." : "A late usage row or a correction arrived.";
    return `The ledger changed after the last report. ${late}`;
  }
  return provider > e.sentUnits
    ? `The meter moved without a report from the app (last sent ${e.sentUnits}, meter ${provider}): a report was counted twice or something else wrote to the meter.`
    : `The meter moved down without a report from the app (last sent ${e.sentUnits}, meter ${provider}): something else wrote to the meter.`;
}

/**
 * A cycle's numbers as they stand after a run: the ledger, the last total
 * sent, the meter, and whether the cycle is closed. A run whose standing
 * equals the cycle's last evidence row adds no row, so running the
 * reconciler twice over unchanged numbers leaves the record unchanged.
 */
export function standingOf(s: { ledgerUnits: number; sentUnits: number | null; providerUnits: number | null; closed: boolean }): string {
  const n = (value: number | null) => (value === null ? "?" : String(value));
  return `ledger=${s.ledgerUnits} sent=${n(s.sentUnits)} meter=${n(s.providerUnits)} ${s.closed ? "closed" : "open"}`;
}

/** How the reporter's write of one cycle went. */
export type WriteOutcome =
  | { kind: "ok" }
  | { kind: "rate_limited"; retryAfterMs: number | null }
  | { kind: "failed"; retryable: boolean }
  /** Not attempted: an earlier write in this run was throttled. */
  | { kind: "skipped"; untilMs: number };

/** A 429 with no RateLimit-Reset waits this long. */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 30_000;
/** A write the provider refused outright (missing scope, unknown customer) is tried again after this, not every minute. */
export const REFUSED_WRITE_WAIT_MS = 15 * 60_000;

/**
 * When a cycle comes back to the reporter after its write: null when it was
 * written (a later click marks it again by itself); now for a failed write;
 * after RateLimit-Reset for a 429.
 */
export function remarkAfter(outcome: WriteOutcome, nowMs: number): number | null {
  switch (outcome.kind) {
    case "ok":
      return null;
    case "rate_limited":
      return nowMs + (outcome.retryAfterMs ?? DEFAULT_RATE_LIMIT_WAIT_MS);
    case "failed":
      return outcome.retryable ? nowMs : nowMs + REFUSED_WRITE_WAIT_MS;
    case "skipped":
      return Math.max(nowMs, outcome.untilMs);
  }
}

/** Splits `items` into consecutive groups of at most `size`. */
export function inBatches<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isSafeInteger(size) || size < 1) throw new Error(`Invariant broken: batch size ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The nightly reconcile runs once a day from this hour (UTC). */
export const NIGHTLY_HOUR_UTC = 3;

/**
 * Whether the nightly reconcile is due: it has never run, or it has not run
 * since the latest NIGHTLY_HOUR_UTC:00 that has passed. Checked by a frequent
 * schedule, so a server restart cannot push the nightly run back a day.
 */
export function nightlyDue(lastStartedAtMs: number | null, nowMs: number, hourUtc = NIGHTLY_HOUR_UTC): boolean {
  if (lastStartedAtMs === null) return true;
  const now = new Date(nowMs);
  let slot = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hourUtc);
  if (slot > nowMs) slot -= 86_400_000;
  return lastStartedAtMs < slot;
}
