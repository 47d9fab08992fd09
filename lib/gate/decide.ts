/**
 * The gate's pure decisions (Part A): admit, chargeStep and settle. No I/O,
 * no clock: the transaction scripts in ./scripts.ts read the rows, ask these
 * functions what to do, and apply the answer.
 *
 * Every amount is a whole number of units of the job's feature (tokens unless
 * the caller names another). The invariants below are asserted on every call:
 * a broken one is a bug, never an outcome.
 */
import { invariant } from "../errors";

/** What admission looks at: the limit in force (null: no maximum) and the budget's two numbers. */
export interface BudgetFigures {
  limitUnits: number | null;
  /** Final usage of settled jobs this cycle. */
  usedUnits: number;
  /** Sum of the holds of running jobs. */
  heldUnits: number;
}

export type Admission =
  | { admitted: true; remainingUnits: number | null }
  | { admitted: false; remainingUnits: number; reason: string };

function assertWhole(value: number, name: string): void {
  invariant(Number.isSafeInteger(value) && value >= 0, `${name} must be a whole number of at least 0, got ${value}`);
}

/** How much of the limit nobody has used or holds; null when there is no maximum. */
export function remainingOf(budget: BudgetFigures): number | null {
  if (budget.limitUnits === null) return null;
  return Math.max(0, budget.limitUnits - budget.usedUnits - budget.heldUnits);
}

/**
 * Check and hold in one step: a job that needs `amountUnits` is admitted only
 * if that much of the limit is neither used nor held. With no maximum every
 * job is admitted. A plan that shrank below used + held leaves nothing
 * remaining; it never goes negative.
 */
export function admit(budget: BudgetFigures, amountUnits: number): Admission {
  assertWhole(budget.usedUnits, "used");
  assertWhole(budget.heldUnits, "held");
  if (budget.limitUnits !== null) assertWhole(budget.limitUnits, "limit");
  assertWhole(amountUnits, "amount");
  const remaining = remainingOf(budget);
  if (remaining === null) return { admitted: true, remainingUnits: null };
  if (amountUnits > remaining) {
    return { admitted: false, remainingUnits: remaining, reason: `The job needs ${amountUnits} and ${remaining} is left.` };
  }
  return { admitted: true, remainingUnits: remaining - amountUnits };
}

/**
 * One step of work charged against the job's hold. Only what is left of the
 * hold is charged; a step that would pass it caps the job (the worker must
 * stop). A step of 0 is a sign of life and charges nothing.
 */
export function chargeStep(heldUnits: number, usedUnits: number, tokens: number): { chargedUnits: number; capped: boolean } {
  assertWhole(heldUnits, "held");
  assertWhole(usedUnits, "used");
  assertWhole(tokens, "tokens");
  invariant(usedUnits <= heldUnits, `a job's usage (${usedUnits}) never passes its hold (${heldUnits})`);
  const room = heldUnits - usedUnits;
  const chargedUnits = Math.min(tokens, room);
  const result = { chargedUnits, capped: chargedUnits < tokens };
  invariant(result.chargedUnits >= 0 && usedUnits + result.chargedUnits <= heldUnits, "a step never charges past the hold");
  return result;
}

/**
 * Pay for what was used, return the rest. A job is charged what it used, never
 * more than it held, and never less than its steps already charged (a settle
 * cannot take back a charged step).
 */
export function settle(heldUnits: number, usedUnits: number): { chargedUnits: number; releasedUnits: number } {
  assertWhole(heldUnits, "held");
  assertWhole(usedUnits, "used");
  const chargedUnits = Math.min(usedUnits, heldUnits);
  const releasedUnits = heldUnits - chargedUnits;
  invariant(chargedUnits <= heldUnits, "charged never exceeds held");
  invariant(releasedUnits === heldUnits - chargedUnits && releasedUnits >= 0, "released is held minus charged");
  return { chargedUnits, releasedUnits };
}
