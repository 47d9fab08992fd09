/**
 * `customer.invoice_overdue`: record the billing status on the account (shown on its page). Whether
 * the gate then refuses new jobs is a per-account policy of the gate, off by default.
 */
import { billingStatusWrite, NEWER_BILLING_STORED } from "./billing-status";
import { ignored, type Handler } from "./types";

export const type = "customer.invoice_overdue";

export const handle: Handler = (facts) => {
  const write = billingStatusWrite(facts, "invoice_overdue");
  if (write === null) return ignored(NEWER_BILLING_STORED);
  return { outcome: "applied", result: "billing status set to invoice_overdue", writes: [write] };
};
