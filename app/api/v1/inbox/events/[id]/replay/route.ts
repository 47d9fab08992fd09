import { actorOf, authenticate, notFound, scopeOf } from "@/lib/http/auth";
import { json, requireSameOrigin, route } from "@/lib/http/api";
import { workerStep } from "@/lib/inbox/kick";
import { replayOne } from "@/lib/inbox/replay";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/**
 * Replays one stored event. An account key or member may replay only its own
 * account's events (the script is scoped to the account: another account's is
 * the same 404 as a missing one); the operator any. Audited with the caller
 * in the replay's transaction. The answer says how it ended after the same
 * guards ran again.
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  requireSameOrigin(request);
  const principal = await authenticate(request);
  const { id } = await params;
  if (!/^evt_[0-9a-z]{20}$/.test(id)) throw notFound("inbox event", id);
  const { engine } = getRuntime();
  const outcome = await replayOne(engine.run.bind(engine), { inboxEventId: id, asAccountId: scopeOf(principal), actor: actorOf(principal) }, workerStep());
  return json({ replayed: id, ...outcome });
});
