/** The billing status an account shows ("ok", "payment_failed", "invoice_overdue"), guarded by event time like the plan. */
import type { HandlerFacts, Write } from "./types";

export const NEWER_BILLING_STORED = "a newer billing event is already stored";

/** The write that records `status`, or null when a newer billing event already set the status. */
export function billingStatusWrite(facts: HandlerFacts, status: string): Extract<Write, { kind: "setBillingStatus" }> | null {
  const storedAtMs = facts.clocks?.billingChangedAtMs ?? null;
  if (storedAtMs !== null && facts.event.occurredAtMs <= storedAtMs) return null;
  return { kind: "setBillingStatus", status, changedAtMs: facts.event.occurredAtMs };
}
