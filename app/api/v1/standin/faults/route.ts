import * as standin from "@/lib/standin/scripts";
import { faultRequest } from "@/lib/standin/admin";
import { json, readJson, requireOperator, requireSameOrigin, route } from "@/lib/http/api";
import { audit } from "@/lib/audit/audit";
import { getRuntime } from "@/lib/runtime";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

/** The stand-in's fault switches that are on now. */
export const GET = route(async (request: Request) => {
  await requireOperator(request);
  return json(await getRuntime().engine.run(standin.faults, {}));
});

/**
 * Turns a switch on — `{ "kind": "fail_writes", "count": 3 }`, `{ "kind": "rate_limit", "count": 5, "resetSeconds": 30 }`,
 * `{ "kind": "drift", "amount": 426 }`, `{ "kind": "hang", "count": null }`, `{ "kind": "deny_scope", "scope": "read:meter_usage" }` —
 * or off: `{ "clear": "drift" }`, `{ "clear": "all" }`. Answers with the switches on afterwards.
 */
export const POST = route(async (request: Request) => {
  requireSameOrigin(request);
  const principal = await requireOperator(request);
  const body = parseInput(faultRequest, await readJson(request), "body");
  const { engine } = getRuntime();
  if ("clear" in body) await engine.run(standin.clearFault, { kind: body.clear });
  else await engine.run(standin.setFault, body);
  await audit(principal, "standin.fault", "clear" in body ? `clear:${body.clear}` : body.kind, { ...body });
  return json(await engine.run(standin.faults, {}));
});
