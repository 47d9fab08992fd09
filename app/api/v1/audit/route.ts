import * as auditScripts from "@/lib/audit/scripts";
import { json, requireOperator, route } from "@/lib/http/api";
import { getRuntime } from "@/lib/runtime";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

/** Operator: the audit log, newest first; ?accountId= narrows to one account, ?before= pages. */
export const GET = route(async (request: Request) => {
  await requireOperator(request);
  const url = new URL(request.url);
  const limit = url.searchParams.get("limit");
  const query = parseInput(
    auditScripts.list.args,
    {
      ...(limit !== null ? { limit: /^\d{1,6}$/.test(limit) ? Number(limit) : limit } : {}),
      ...(url.searchParams.has("accountId") ? { accountId: url.searchParams.get("accountId") } : {}),
      ...(url.searchParams.has("before") ? { before: url.searchParams.get("before") } : {}),
    },
    "query",
  );
  return json(await getRuntime().engine.run(auditScripts.list, query));
});
