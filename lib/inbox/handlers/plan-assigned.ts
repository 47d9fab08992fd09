/** `customer.plan_assigned`: the plan rules of plan-event.ts (time guard, keyed allowance, agreement, gate limit). */
import { handlePlanEvent } from "./plan-event";
import type { Handler } from "./types";

export const type = "customer.plan_assigned";
export const handle: Handler = handlePlanEvent;
