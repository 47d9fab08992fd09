import * as auditScripts from "@/lib/audit/scripts";
import { json, requireOperator, route } from "@/lib/http/api";
import { getRuntime } from "@/lib/runtime";
import { parseInput, queryInt } from "@/lib/validation";

export const dynamic = "force-dynamic";

/** Operator: the audit log, newest first; ?accountId= narrows to one account, ?before= pages. */
export const GET = route(async (request: Request) => {
  await requireOperator(request);
  const url = new URL(request.url);
  const query = parseInput(
    auditScripts.list.args,
    {
      ...(url.searchParams.has("limit") ? { limit: queryInt(url.searchParams.get("limit")) } : {}),
      ...(url.searchParams.has("accountId") ? { accountId: url.searchParams.get("accountId") } : {}),
      ...(url.searchParams.has("before") ? { before: url.searchParams.get("before") } : {}),
    },
    "query",
  );
  return json(await getRuntime().engine.run(auditScripts.list, query));
});
