/**
 * The naive handler for the Engine Room: verified exactly like the real
 * intake, then applied on arrival, the way most apps do it (see
 * naive-scripts.ts). The drill header makes it stop after the plan write, as
 * a process that dies between two writes would.
 */
import * as accounts from "../accounts/scripts";
import { AppError } from "../errors";
import { FREE_PLAN } from "./allowance";
import { planOfKey, readFields } from "./fields";
import { DRILL_HEADER, DRILL_STOP_WORKER, readWebhook, type IntakeDeps } from "./intake";
import * as naive from "./naive-scripts";

const PLAN_EVENTS = new Set(["customer.plan_changed", "customer.plan_assigned", "customer.agreement_created"]);

export async function naiveIntake(request: Request, deps: IntakeDeps): Promise<{ did: string }> {
  const { event } = await readWebhook(request, deps);
  const stop = request.headers.get(DRILL_HEADER) === DRILL_STOP_WORKER && deps.operator;
  const fields = readFields(event.claims);
  const account = fields.customerId ? await deps.run(accounts.getByKindeCustomerId, { kindeCustomerId: fields.customerId }) : null;
  if (!account) return { did: "nothing: no account has this customer" };
  if (PLAN_EVENTS.has(event.type)) {
    const plan = fields.planKey ? planOfKey(fields.planKey) : null;
    if (!plan) return { did: "nothing: no known plan in the event" };
    await deps.run(naive.setPlan, { accountId: account.id, plan });
    if (stop) throw new AppError("internal", "The naive handler stopped after writing the plan (drill); the allowance was never written.");
    const granted = await deps.run(naive.grant, { accountId: account.id, plan });
    return { did: `plan set to ${plan}, ${granted.units} added` };
  }
  if (stop) throw new AppError("internal", "The naive handler stopped before its write (drill).");
  if (event.type === "customer.agreement_cancelled") {
    await deps.run(naive.setPlan, { accountId: account.id, plan: FREE_PLAN });
    return { did: `plan set to ${FREE_PLAN}` };
  }
  if (event.type === "customer.payment_succeeded") {
    const granted = await deps.run(naive.grant, { accountId: account.id, plan: null });
    return { did: `${granted.units} added for the ${granted.plan} plan` };
  }
  return { did: `nothing: ${event.type} is not handled` };
}
