import { json, requireOperator, route } from "@/lib/http/api";
import { runtimeIntakeDeps } from "@/lib/inbox/intake";
import { naiveIntake } from "@/lib/inbox/naive";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/**
 * The Engine Room's foil: a handler that applies each webhook as it arrives
 * (no dedupe, no time guard, two transactions). Operator only; it exists to
 * show, on a test account, what the inbox prevents.
 */
export const POST = route(async (request) => {
  await requireOperator(request);
  return json(await naiveIntake(request, runtimeIntakeDeps(getRuntime(), true, "naive handler")));
});
