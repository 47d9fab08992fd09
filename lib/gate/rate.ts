/**
 * The admission rate limit: at most N new jobs per account per minute
 * (Part A: 120). A counter on the account's billing row, never a count of job
 * rows: counting recent jobs would make every admission read (and, on Convex,
 * conflict with) every running job.
 *
 * A fixed window: it opens at the first admission after the last window ended
 * and lasts a minute; each admission adds one. A window that is full refuses
 * until it ends, and says when that is. (Like every counter window, two full
 * windows back to back can admit up to 2N within 60 s of each other; each
 * window on its own never passes N.)
 */
import { invariant } from "../errors";

export const RATE_WINDOW_MS = 60_000;
export const DEFAULT_ADMISSIONS_PER_MINUTE = 120;

export interface RateWindow {
  windowStartMs: number;
  /** Jobs admitted since windowStartMs. */
  windowAdmissions: number;
}

export type RateDecision =
  | { allowed: true; next: RateWindow }
  | { allowed: false; retryAfterMs: number; reason: string };

/** May one more job be admitted now? `next` is the window to store if it is. */
export function decideRate(window: RateWindow | null, admissionsPerMinute: number, nowMs: number): RateDecision {
  invariant(Number.isSafeInteger(admissionsPerMinute) && admissionsPerMinute >= 1, "the admission rate is a whole number of at least 1");
  const current = window && nowMs < window.windowStartMs + RATE_WINDOW_MS && nowMs >= window.windowStartMs ? window : { windowStartMs: nowMs, windowAdmissions: 0 };
  invariant(current.windowAdmissions >= 0, "a window never counts below zero");
  if (current.windowAdmissions >= admissionsPerMinute) {
    const retryAfterMs = Math.max(1, current.windowStartMs + RATE_WINDOW_MS - nowMs);
    return {
      allowed: false,
      retryAfterMs,
      reason: `This account may start ${admissionsPerMinute} jobs a minute and has started ${current.windowAdmissions}; try again in ${Math.ceil(retryAfterMs / 1000)} s.`,
    };
  }
  return { allowed: true, next: { windowStartMs: current.windowStartMs, windowAdmissions: current.windowAdmissions + 1 } };
}
