import * as standin from "@/lib/standin/scripts";
import { limitRequest } from "@/lib/standin/admin";
import { json, readJson, requireOperator, requireSameOrigin, route } from "@/lib/http/api";
import { actorOf } from "@/lib/http/auth";
import { getRuntime } from "@/lib/runtime";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** What the stand-in answers for the account, feature by feature: the plan's limit, the operator's, and the one in force. */
export const GET = route(async (request: Request, context: Context) => {
  await requireOperator(request);
  const { id } = await context.params;
  return json(await getRuntime().engine.run(standin.limits, { accountId: id }));
});

/**
 * Sets one feature's limit for the account: `{ "featureCode": "tokens", "limitMax": 250 }` (null: unlimited; "plan": the
 * plan's again). Audited with the operator in the same transaction.
 */
export const PUT = route(async (request: Request, context: Context) => {
  requireSameOrigin(request);
  const principal = await requireOperator(request);
  const { id } = await context.params;
  const body = parseInput(limitRequest, await readJson(request), "body");
  const { engine } = getRuntime();
  const actor = actorOf(principal);
  if (body.limitMax === "plan") await engine.run(standin.clearLimit, { accountId: id, featureCode: body.featureCode, actor });
  else await engine.run(standin.setLimit, { accountId: id, featureCode: body.featureCode, limitMax: body.limitMax, actor });
  return json(await engine.run(standin.limits, { accountId: id }));
});
