/** `customer.agreement_cancelled`: back to the free plan, under the same time guard as a plan change. */
import { FREE_PLAN } from "../allowance";
import { planChangeApplies } from "../decide";
import { NEWER_PLAN_STORED } from "./plan-event";
import { ignored, type Handler } from "./types";

export const type = "customer.agreement_cancelled";

export const handle: Handler = ({ event, account }) => {
  if (!planChangeApplies(account.planChangedAtMs, event.occurredAtMs)) return ignored(NEWER_PLAN_STORED);
  return {
    outcome: "applied",
    result: `plan set to ${FREE_PLAN} (agreement cancelled)`,
    writes: [{ kind: "setPlan", plan: FREE_PLAN, planChangedAtMs: event.occurredAtMs }, { kind: "dropCachedLimit" }],
  };
};
