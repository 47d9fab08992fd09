/** The allowance grant every plan and payment handler tries: one keyed row per plan, account and period. */
import { grantKey, planLabel, topUpUnits } from "../allowance";
import type { HandlerFacts, Write } from "./types";

export type GrantPlan =
  | { kind: "grant"; write: Extract<Write, { kind: "grant" }>; label: string }
  | { kind: "already"; label: string }
  | { kind: "none" }; // the plan grants nothing beyond the free allowance

export function planGrant(facts: HandlerFacts, plan: string): GrantPlan {
  const units = topUpUnits(plan);
  if (units === null || units <= 0) return { kind: "none" };
  const label = `${planLabel(plan)} allowance`;
  const key = grantKey(plan, facts.account.id, facts.period.name);
  if (facts.grants.some((g) => g.key === key)) return { kind: "already", label };
  return {
    kind: "grant",
    label,
    write: { kind: "grant", key, plan, period: facts.period.name, units, reason: `${label} for ${facts.period.name} (${facts.event.type} ${facts.event.id})` },
  };
}
