/**
 * The allowance (Bottle's "bottles"): every account holds the free plan's
 * allowance in every period; a paid plan's grant tops it up to that plan's
 * allowance. So a Pro period holds 10 + 490 = 500, and the grant is one
 * ledger row keyed plan:account:period that any handler may try to write.
 */
import { cycleOf, type Cycle } from "../usage/cycle";
import type { AllowanceGrant } from "./repo";

/** Units per period for each plan. */
export const PLAN_ALLOWANCE: Readonly<Record<string, number>> = { free: 10, pro: 500 };
export const FREE_PLAN = "free";
export const FREE_ALLOWANCE = PLAN_ALLOWANCE[FREE_PLAN]!;

/** The units a grant of `plan` adds on top of the free allowance; null when the plan has no allowance in the catalog. */
export function topUpUnits(plan: string): number | null {
  return Object.hasOwn(PLAN_ALLOWANCE, plan) ? PLAN_ALLOWANCE[plan]! - FREE_ALLOWANCE : null;
}

export function grantKey(plan: string, accountId: string, period: string): string {
  return `${plan}:${accountId}:${period}`;
}

/** A period's balance: the free allowance plus every grant of that period. */
export function balanceOf(grants: readonly Pick<AllowanceGrant, "units">[]): number {
  return grants.reduce((sum, g) => sum + g.units, FREE_ALLOWANCE);
}

export function planLabel(plan: string): string {
  return plan.charAt(0).toUpperCase() + plan.slice(1);
}

/** The account's period that contains `atMs` (its billing cycle). */
export function periodOf(atMs: number, cycleAnchorMs: number | null): Cycle {
  return cycleOf(atMs, cycleAnchorMs);
}
