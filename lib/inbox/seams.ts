/**
 * Where the inbox's handlers reach into the other parts, inside the apply
 * transaction (so a rolled-back apply leaves them untouched too):
 * - the gate's cached limits of an account are dropped after a plan change,
 *   so the next admission reads the new plan at once (Part A leaves plan
 *   changes "only touched on"); running holds keep their size;
 * - the meter queues a reconcile of an account when Kinde says its meter moved.
 */
import { dropCachedLimits } from "../gate/scripts";
import { queueReconcile as queueMeterReconcile } from "../meter/scripts";
import type { Tx } from "../store/port";

export async function dropCachedLimit(tx: Tx, accountId: string): Promise<"dropped"> {
  await dropCachedLimits(tx, accountId);
  return "dropped";
}

export async function queueReconcile(tx: Tx, accountId: string): Promise<"queued"> {
  await queueMeterReconcile(tx, accountId, "Kinde reported that the meter changed (customer.meter_usage_updated).");
  return "queued";
}
