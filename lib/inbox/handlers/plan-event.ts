/**
 * The three events that put a customer on a plan (plan_changed, plan_assigned,
 * agreement_created) share one rule set:
 * - the plan is set only if the event is newer than the plan change already
 *   stored — the time guard; the agreement that meter writes go to, likewise
 *   against the agreement's own time;
 * - the plan's allowance for the event's period is granted as a keyed row,
 *   whether or not the guard let the plan through, because the customer was on
 *   that plan at that time (so the result does not depend on arrival order);
 * - the gate's cached limit is dropped, so the next admission reads the new plan.
 */
import { EVENT_FIELD_PATHS, planOfKey } from "../fields";
import { planChangeApplies } from "../decide";
import { planGrant } from "./grant";
import { ignored, type Decision, type HandlerFacts, type Write } from "./types";

export const NEWER_PLAN_STORED = "a newer plan change is already stored";

export function handlePlanEvent(facts: HandlerFacts): Decision {
  const { event, account } = facts;
  const key = event.fields.planKey;
  if (key === null) return ignored(`the event names no plan (looked at ${EVENT_FIELD_PATHS.planKey.join(", ")})`);
  const plan = planOfKey(key);
  if (plan === null) return ignored(`plan key "${key}" is not in the plan catalog (lib/inbox/fields.ts)`);

  const writes: Write[] = [];
  const parts: string[] = [];
  const guardPasses = planChangeApplies(account.planChangedAtMs, event.occurredAtMs);
  if (guardPasses) {
    writes.push({ kind: "setPlan", plan, planChangedAtMs: event.occurredAtMs });
    parts.push(`plan set to ${plan}`);
  }
  const grant = planGrant(facts, plan);
  if (grant.kind === "grant") {
    writes.push(grant.write);
    parts.push(guardPasses ? `${grant.label} granted` : `${grant.label} for ${facts.period.name} granted`);
  } else if (grant.kind === "already" && guardPasses) {
    parts.push(`${grant.label} already granted`);
  }
  // The agreement has its own clock: a plan event without one must not hide an older event's.
  const agreementId = event.fields.agreementId;
  const agreementAtMs = facts.clocks?.agreementChangedAtMs ?? null;
  if (agreementId !== null && (agreementAtMs === null || event.occurredAtMs > agreementAtMs)) {
    writes.push({ kind: "setAgreement", agreementId, changedAtMs: event.occurredAtMs });
    if (!guardPasses) parts.push(`agreement ${agreementId} recorded`);
  }
  if (guardPasses) writes.push({ kind: "dropCachedLimit" });
  if (!guardPasses) {
    if (writes.length === 0) return ignored(NEWER_PLAN_STORED);
    return { outcome: "applied", result: `plan not changed (${NEWER_PLAN_STORED}), ${parts.join(", ")}`, writes };
  }
  return { outcome: "applied", result: parts.join(", "), writes };
}
