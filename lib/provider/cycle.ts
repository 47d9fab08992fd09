/**
 * The provider's side of cycle names: a provider reports a period start, and
 * the port names cycles as lib/usage/cycle.ts does ("2026-10" for a period
 * starting 20 October: the month it starts in).
 */
import { cycleOf } from "../usage/cycle";

/** The cycle name of a period that starts at `periodStartMs`. */
export function cycleNameOf(periodStartMs: number): string {
  return cycleOf(periodStartMs, periodStartMs).name;
}
