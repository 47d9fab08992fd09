import { authenticate, notFound, scopeOf } from "@/lib/http/auth";
import { json, route } from "@/lib/http/api";
import * as inbox from "@/lib/inbox/scripts";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/** One billing event with its deliveries: the account's own key or member (scoped in the script), or the operator. */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const principal = await authenticate(request);
  const { id } = await params;
  const event = /^evt_[0-9a-z]{20}$/.test(id) ? await getRuntime().engine.run(inbox.get, { inboxEventId: id, asAccountId: scopeOf(principal) }) : null;
  if (!event) throw notFound("inbox event", id);
  return json({ event });
});
