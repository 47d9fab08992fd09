"use server";

import { replayAnswer, type ReplayState } from "@/app/app/inbox/replay-answer";
import { actorOf } from "@/lib/http/auth";
import { requireMemberSession } from "@/lib/http/session";
import { workerStep } from "@/lib/inbox/kick";
import { replayOne } from "@/lib/inbox/replay";
import { getRuntime } from "@/lib/runtime";

/**
 * A member replays one of their own account's events: the same path as the
 * API's replay route (inbox.replay scoped to the member's account, so another
 * account's event is "No inbox event …", and audited with the member).
 */
export async function replayOwnEventAction(_previous: ReplayState, form: FormData): Promise<ReplayState> {
  const me = await requireMemberSession();
  const { engine } = getRuntime();
  const inboxEventId = String(form.get("inboxEventId") ?? "");
  return replayAnswer("/account", () => replayOne(engine.run.bind(engine), { inboxEventId, asAccountId: me.accountId, actor: actorOf(me.principal) }, workerStep()));
}
