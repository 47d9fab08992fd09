/**
 * `customer.payment_succeeded`: grant the period's allowance — the same keyed
 * row the plan change grants, so whichever arrives first grants it and the
 * other skips it — and set the billing status back to ok (time-guarded).
 *
 * The plan paid for is the event's plan key when it has one; otherwise the
 * account's plan when the payment is applied. Only the first makes the result
 * independent of arrival order (Kinde's payment payload is undocumented).
 */
import { planLabel } from "../allowance";
import { planOfKey } from "../fields";
import { billingStatusWrite } from "./billing-status";
import { planGrant } from "./grant";
import { ignored, type Handler, type Write } from "./types";

export const type = "customer.payment_succeeded";

export const handle: Handler = (facts) => {
  const key = facts.event.fields.planKey;
  const plan = key === null ? facts.account.plan : planOfKey(key);
  if (plan === null) return ignored(`plan key "${key}" is not in the plan catalog (lib/inbox/fields.ts)`);
  const writes: Write[] = [];
  const parts: string[] = [];
  const status = billingStatusWrite(facts, "ok");
  if (status !== null) {
    writes.push(status);
    if (facts.account.billingStatus !== "ok") parts.push("billing status back to ok");
  }
  const grant = planGrant(facts, plan);
  if (grant.kind === "grant") {
    writes.push(grant.write);
    parts.push(`${grant.label} granted`);
  }
  if (parts.length > 0) return { outcome: "applied", result: parts.join(", "), writes };
  const why =
    grant.kind === "already"
      ? `the ${grant.label} for ${facts.period.name} is already granted`
      : `the ${planLabel(plan)} plan grants nothing beyond the free allowance`;
  return { outcome: "ignored", result: `ignored: ${why}`, writes };
};
