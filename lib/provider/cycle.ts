/**
 * Cycle names as the provider port uses them: a cycle is named by the UTC
 * month its period starts in ("2026-10" for a period starting 20 October).
 * The meter's own cycle arithmetic (anchor → cycle) must name cycles the same way.
 */
export const CYCLE_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

export function cycleNameOf(periodStartMs: number): string {
  const d = new Date(periodStartMs);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
}

/**
 * The start of the monthly period that contains `nowMs`, for a cycle anchored
 * at `anchorMs` (day of month and time of day kept; the anchor's day must be
 * 1–28 so every month has it). Before the anchor, the anchor itself.
 */
export function periodStartAt(anchorMs: number, nowMs: number): number {
  if (nowMs <= anchorMs) return anchorMs;
  const anchor = new Date(anchorMs);
  const now = new Date(nowMs);
  let months = (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (now.getUTCMonth() - anchor.getUTCMonth());
  let start = addMonths(anchor, months);
  if (start > nowMs) start = addMonths(anchor, --months);
  return start;
}

/** The start of the period after the one starting at `periodStartMs`. */
export function nextPeriodStart(periodStartMs: number): number {
  return addMonths(new Date(periodStartMs), 1);
}

function addMonths(anchor: Date, months: number): number {
  return Date.UTC(
    anchor.getUTCFullYear(),
    anchor.getUTCMonth() + months,
    anchor.getUTCDate(),
    anchor.getUTCHours(),
    anchor.getUTCMinutes(),
    anchor.getUTCSeconds(),
    anchor.getUTCMilliseconds(),
  );
}
