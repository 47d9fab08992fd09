import { json, requireOperator, requireSameOrigin, route } from "@/lib/http/api";
import { reportNow } from "@/lib/meter/on-demand";

export const dynamic = "force-dynamic";

/** Operator: runs the reporter once now (it also runs every minute) and answers with what it did; audited. */
export const POST = route(async (request: Request) => {
  requireSameOrigin(request);
  const principal = await requireOperator(request);
  return json({ reporter: await reportNow(principal) });
});
