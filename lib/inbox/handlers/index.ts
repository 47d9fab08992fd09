/** Every event type the inbox handles, one file each. Any other type is ignored with its reason. */
import * as agreementCancelled from "./agreement-cancelled";
import * as agreementCreated from "./agreement-created";
import * as invoiceOverdue from "./invoice-overdue";
import * as meterUsageUpdated from "./meter-usage-updated";
import * as paymentFailed from "./payment-failed";
import * as paymentSucceeded from "./payment-succeeded";
import * as planAssigned from "./plan-assigned";
import * as planChanged from "./plan-changed";
import { ignored, type Decision, type Handler, type HandlerFacts } from "./types";

const all = [planChanged, planAssigned, agreementCreated, agreementCancelled, paymentSucceeded, paymentFailed, invoiceOverdue, meterUsageUpdated];

export const HANDLERS: ReadonlyMap<string, Handler> = new Map(all.map((m) => [m.type, m.handle]));
export const HANDLED_TYPES: readonly string[] = all.map((m) => m.type);

/** Decides what applying the event does. Pure. */
export function decide(facts: HandlerFacts): Decision {
  const handler = HANDLERS.get(facts.event.type);
  if (!handler) return ignored(`${facts.event.type} is not a billing event this app handles`);
  return handler(facts);
}

export type { Decision, HandlerFacts, Write } from "./types";
