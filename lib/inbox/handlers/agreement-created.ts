/** `customer.agreement_created`: the plan rules of plan-event.ts (time guard, keyed allowance, agreement, gate limit). */
import { handlePlanEvent } from "./plan-event";
import type { Handler } from "./types";

export const type = "customer.agreement_created";
export const handle: Handler = handlePlanEvent;
