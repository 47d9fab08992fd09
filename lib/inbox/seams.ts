/**
 * Where the inbox's handlers reach into the other parts, inside the apply
 * transaction (so a rolled-back apply leaves them untouched too):
 * - the gate's cached limit of an account is dropped after a plan change, so
 *   the next admission reads the new plan (Part A leaves plan changes "only
 *   touched on");
 * - the meter queues a reconcile of an account when Kinde says its meter moved.
 *
 * SEAM: the gate (branch `gate`) and the meter (branch `meter`) are not on
 * main yet. Until they are, these are no-ops that say so in their return
 * value; when they land, each becomes one call of that part's script handler
 * with this transaction.
 */
import type { Tx } from "../store/port";

export async function dropCachedLimit(_tx: Tx, _accountId: string): Promise<"dropped" | "not wired"> {
  return "not wired";
}

export async function queueReconcile(_tx: Tx, _accountId: string): Promise<"queued" | "not wired"> {
  return "not wired";
}
