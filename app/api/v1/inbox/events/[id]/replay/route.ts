import { assertOwns, authenticate, notFound } from "@/lib/http/auth";
import { json, requireSameOrigin, route } from "@/lib/http/api";
import { workerStep } from "@/lib/inbox/kick";
import { awaitOutcomes } from "@/lib/inbox/replay";
import * as inbox from "@/lib/inbox/scripts";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/**
 * Replays one stored event. An account key may replay only its own account's
 * events (another account's is the same 404 as a missing one); the operator
 * any. The answer says how it ended after the same guards ran again.
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  requireSameOrigin(request);
  const principal = await authenticate(request);
  const { id } = await params;
  const { engine } = getRuntime();
  const event = /^evt_[0-9a-z]{20}$/.test(id) ? await engine.run(inbox.get, { inboxEventId: id }) : null;
  if (!event) throw notFound("inbox event", id);
  assertOwns(principal, event.accountId ?? "", "inbox event", id);
  await engine.run(inbox.replay, { inboxEventId: id });
  const outcome = await awaitOutcomes(engine.run.bind(engine), [id], workerStep());
  return json({ replayed: id, ...outcome });
});
