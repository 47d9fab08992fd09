import { json, requireOperator, route } from "@/lib/http/api";
import { naiveIntake } from "@/lib/inbox/naive";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/**
 * The Engine Room's foil: a handler that applies each webhook as it arrives
 * (no dedupe, no time guard, two transactions). Operator only; it exists to
 * show, on a test account, what the inbox prevents.
 */
export const POST = route(async (request) => {
  requireOperator(request);
  const runtime = getRuntime();
  const result = await naiveIntake(request, {
    run: runtime.engine.run.bind(runtime.engine),
    keys: runtime.provider.webhookKeys(),
    nowMs: Date.now(),
    maxAgeMs: runtime.config.inbox.webhookMaxAgeMs,
    log: (message) => console.warn(`[tollbooth] naive handler: ${message}`),
    operator: true,
  });
  return json(result);
});
