/**
 * How old a cached limit may be (Part A, "Fail closed when the limit is
 * unknown"). Pure: the cached row and the time come in, a decision goes out.
 *
 *  - A limit read less than 60 s ago is fresh: use it, ask nobody.
 *  - Otherwise the provider may be asked, but at most once a minute per
 *    account and feature (the last attempt, successful or not, starts the minute).
 *  - While it cannot be read, the last limit read is used as it is for up to
 *    10 minutes after that read.
 *  - After that, admission is refused until a read succeeds: a wrong refusal
 *    costs a short delay, a wrong admission costs money.
 *  - While one caller's read is in flight (claimed, no answer yet) and there
 *    is no usable value, the others wait for it rather than being refused.
 */
import { invariant } from "../errors";

export const LIMIT_FRESH_MS = 60_000;
export const LIMIT_STALE_MAX_MS = 10 * 60_000;
export const LIMIT_READ_INTERVAL_MS = 60_000;
/** A claimed read with no outcome after this long is taken as failed (its server may have died mid-read). */
export const LIMIT_READ_PENDING_MAX_MS = 15_000;

/** A limit as the gate uses it: a whole number of units, or null for no maximum. */
export type LimitUnits = number | null;

/** What the cache row says (lib/gate/repo.ts CachedLimit), reduced to what the decision needs. */
export interface LimitCacheState {
  /** "unread": no read has succeeded since the row was made (or since it was dropped). */
  kind: "limited" | "unlimited" | "unread";
  maxUnits: number | null;
  /** When the value was read from the provider; null while unread. */
  readAtMs: number | null;
  /** When the provider was last asked, whether or not it answered. */
  lastAttemptAtMs: number | null;
  /** Why the last attempt failed; null after a success and while an attempt is in flight. */
  lastError: string | null;
}

export type LimitDecision =
  /** Read less than a minute ago. */
  | { use: "fresh"; limitUnits: LimitUnits; ageMs: number }
  /** The provider could not be read lately; the last value is still within its 10 minutes. */
  | { use: "stale"; limitUnits: LimitUnits; ageMs: number }
  /** Ask the provider now (nobody has in the last minute). */
  | { use: "refresh" }
  /** Someone is asking right now and there is nothing usable meanwhile: wait for their answer. */
  | { use: "pending"; retryAfterMs: number }
  /** Nothing usable and the provider may not be asked again yet: refuse, and say when to retry. */
  | { use: "unavailable"; retryAfterMs: number; reason: string };

function valueOf(state: LimitCacheState): LimitUnits {
  invariant(state.kind !== "unread", "an unread limit has no value");
  if (state.kind === "unlimited") return null;
  invariant(state.maxUnits !== null && Number.isSafeInteger(state.maxUnits) && state.maxUnits >= 0, "a limited limit has a whole maximum");
  return state.maxUnits;
}

export function decideLimit(state: LimitCacheState | null, nowMs: number): LimitDecision {
  const readAtMs = state && state.kind !== "unread" ? state.readAtMs : null;
  invariant(state === null || state.kind === "unread" || readAtMs !== null, "a read limit has a read time");
  const ageMs = readAtMs === null ? null : Math.max(0, nowMs - readAtMs);
  if (state && ageMs !== null && ageMs < LIMIT_FRESH_MS) return { use: "fresh", limitUnits: valueOf(state), ageMs };

  const lastAttemptAtMs = state?.lastAttemptAtMs ?? null;
  const nextAttemptAtMs = lastAttemptAtMs === null ? nowMs : lastAttemptAtMs + LIMIT_READ_INTERVAL_MS;
  if (nowMs >= nextAttemptAtMs) return { use: "refresh" };

  if (state && ageMs !== null && ageMs < LIMIT_STALE_MAX_MS) return { use: "stale", limitUnits: valueOf(state), ageMs };

  const inFlight = state !== null && lastAttemptAtMs !== null && state.lastError === null && (readAtMs === null || readAtMs < lastAttemptAtMs);
  if (inFlight && nowMs - lastAttemptAtMs < LIMIT_READ_PENDING_MAX_MS) {
    return { use: "pending", retryAfterMs: Math.max(1, Math.min(250, lastAttemptAtMs + LIMIT_READ_PENDING_MAX_MS - nowMs)) };
  }

  const retryAfterMs = Math.max(1, nextAttemptAtMs - nowMs);
  const reason =
    ageMs === null
      ? "The plan limit has not been read from the billing provider yet and the provider could not be reached; new jobs are refused until it can be read."
      : `The plan limit was last read ${Math.floor(ageMs / 1000)} s ago and the billing provider cannot be reached; after 10 minutes without a read, new jobs are refused until it can be read again.`;
  return { use: "unavailable", retryAfterMs, reason };
}
