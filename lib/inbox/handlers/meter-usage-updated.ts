/** `customer.meter_usage_updated`: the provider's meter moved; queue a reconcile of this account (the meter part). */
import type { Handler } from "./types";

export const type = "customer.meter_usage_updated";

export const handle: Handler = () => ({
  outcome: "applied",
  result: "reconcile of this account's meter queued",
  writes: [{ kind: "queueReconcile" }],
});
