/**
 * Billing cycles. An account's cycle is anchored at its agreement start (the
 * provider starts each cycle on the customer's sign-up date, not on the 1st),
 * repeats monthly, and is named by the month it starts in ("2026-10"). With no
 * anchor a cycle is the UTC calendar month. Monthly only: Kinde's billing FAQ
 * supports monthly cycles.
 *
 * An anchor must fall on the 1st to the 28th: a start on the 31st has no clear
 * meaning in a short month.
 */

export interface Cycle {
  /** "YYYY-MM", the month the cycle starts in. */
  name: string;
  startMs: number;
  /** Exclusive. */
  endMs: number;
}

export const ANCHOR_DAY_MAX = 28;

/** Why an anchor is not allowed, or null when it is. */
export function anchorProblem(anchorMs: number): string | null {
  if (!Number.isSafeInteger(anchorMs) || anchorMs < 0) return "the agreement start must be a time in milliseconds since 1970";
  const day = new Date(anchorMs).getUTCDate();
  if (day > ANCHOR_DAY_MAX) return `the agreement start falls on day ${day}; it must fall on the 1st to the 28th of a month`;
  return null;
}

/** The moment in (year, month) at which a cycle anchored at `anchorMs` starts. */
function occurrence(anchor: Date, year: number, month: number): number {
  return Date.UTC(year, month, anchor.getUTCDate(), anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds(), anchor.getUTCMilliseconds());
}

function nameOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
}

/** The cycle that contains `atMs`. */
export function cycleOf(atMs: number, anchorMs: number | null): Cycle {
  const at = new Date(atMs);
  const anchor = new Date(anchorMs ?? Date.UTC(1970, 0, 1));
  let year = at.getUTCFullYear();
  let month = at.getUTCMonth();
  let start = occurrence(anchor, year, month);
  if (atMs < start) {
    month -= 1;
    if (month < 0) {
      month = 11;
      year -= 1;
    }
    start = occurrence(anchor, year, month);
  }
  const end = occurrence(anchor, month === 11 ? year + 1 : year, (month + 1) % 12);
  return { name: nameOf(start), startMs: start, endMs: end };
}

/** The cycle with a given name ("YYYY-MM") for an anchor. */
export function cycleNamed(name: string, anchorMs: number | null): Cycle {
  const match = /^(\d{4})-(\d{2})$/.exec(name);
  if (!match) throw new Error(`Invariant broken: ${name} is not a cycle name`);
  const anchor = new Date(anchorMs ?? Date.UTC(1970, 0, 1));
  const start = occurrence(anchor, Number(match[1]), Number(match[2]) - 1);
  return cycleOf(start, anchorMs);
}

/** A cycle is closed once its end has passed; a closed cycle's meter is never written. */
export function isClosed(cycle: Cycle, nowMs: number): boolean {
  return nowMs >= cycle.endMs;
}
