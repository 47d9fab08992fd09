/**
 * The stand-in's pure decisions: which fault a call meets, how a meter write
 * changes a total, and where an account's cycles are anchored. Time comes in
 * as an argument; the scripts apply what these return.
 */
import type { FaultKind, MeterRecordKind, StandinFault } from "./repo";

export type StandinOperation = "readLimit" | "readUsage" | "setUsage" | "currentAgreement";

/** The Kinde scope each operation needs (the stand-in's deny_scope fault refuses by these). */
export const SCOPE_OF: Readonly<Record<StandinOperation, string>> = {
  readLimit: "read:billing_entitlements",
  currentAgreement: "read:billing_agreements",
  setUsage: "create:meter_usage",
  readUsage: "read:meter_usage",
};

export type CallFate =
  | { fate: "hang" }
  | { fate: "rate_limited"; resetSeconds: number }
  | { fate: "not_allowed"; scope: string }
  | { fate: "fail" }
  | { fate: "proceed"; driftBy: number };

/** What happens to each switch the call consumed: its new count, or deleted when it reaches zero. */
export type FaultUpdate = { kind: FaultKind; remaining: number } | { kind: FaultKind; delete: true };

export const DEFAULT_RATE_LIMIT_RESET_SECONDS = 30;

/**
 * The fate of one provider call, in order of precedence: a stopped provider
 * answers nothing (hang), a throttled one answers 429 before it checks
 * anything, a missing scope refuses, then (writes only) a failing write, then
 * a drifting meter. A call consumes only the switch that decided it, except
 * that a write that proceeds also consumes drift.
 */
export function decideCall(faults: readonly StandinFault[], operation: StandinOperation): { fate: CallFate; updates: FaultUpdate[] } {
  const on = new Map(faults.map((f) => [f.kind, f]));
  const consume = (fault: StandinFault): FaultUpdate[] =>
    fault.remaining === null ? [] : fault.remaining <= 1 ? [{ kind: fault.kind, delete: true }] : [{ kind: fault.kind, remaining: fault.remaining - 1 }];

  const hang = on.get("hang");
  if (hang) return { fate: { fate: "hang" }, updates: consume(hang) };
  const throttle = on.get("rate_limit");
  if (throttle) {
    return { fate: { fate: "rate_limited", resetSeconds: throttle.amount ?? DEFAULT_RATE_LIMIT_RESET_SECONDS }, updates: consume(throttle) };
  }
  const deny = on.get("deny_scope");
  if (deny && deny.scope === SCOPE_OF[operation]) return { fate: { fate: "not_allowed", scope: deny.scope }, updates: consume(deny) };
  if (operation !== "setUsage") return { fate: { fate: "proceed", driftBy: 0 }, updates: [] };
  const fail = on.get("fail_writes");
  if (fail) return { fate: { fate: "fail" }, updates: consume(fail) };
  const drift = on.get("drift");
  if (drift && drift.amount) return { fate: { fate: "proceed", driftBy: drift.amount }, updates: consume(drift) };
  return { fate: { fate: "proceed", driftBy: 0 }, updates: [] };
}

/** A meter write: absolute replaces the total, delta adds to it. */
export function applyMeterWrite(total: number, kind: MeterRecordKind, value: number): number {
  return kind === "absolute" ? value : total + value;
}

/**
 * Where a new agreement's cycles are anchored: the account's own anchor when it
 * has one, else the start of the account's first day, with a day past the
 * 28th moved back to the 28th so every month has it.
 */
export function defaultAnchorMs(account: { cycleAnchorMs: number | null; createdAtMs: number }): number {
  if (account.cycleAnchorMs !== null) return account.cycleAnchorMs;
  const d = new Date(account.createdAtMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), Math.min(d.getUTCDate(), 28));
}
