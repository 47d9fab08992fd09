/**
 * What a Replay button shows: how the replayed events ended, in a sentence.
 * Shared by the operator's Inbox actions and the member's (app/account/events).
 */
import { revalidatePath } from "next/cache";
import { isAppError } from "@/lib/errors";
import type { ReplayOutcome } from "@/lib/inbox/replay";

export interface ReplayState {
  message: string | null;
  error: string | null;
}

export function replaySummary(outcome: ReplayOutcome): string {
  if (outcome.requeued === 0) return "Nothing matched: no event was replayed.";
  const parts = [`${outcome.requeued} replayed`, `${outcome.applied} applied`, `${outcome.ignored} ignored`];
  if (outcome.failed) parts.push(`${outcome.failed} failed (will retry)`);
  if (outcome.dead) parts.push(`${outcome.dead} dead`);
  if (outcome.waiting) parts.push(`${outcome.waiting} still waiting for the worker`);
  if (outcome.more) parts.push("more matched: replay again for the rest");
  const one = outcome.requeued === 1 ? outcome.results[0]?.result : null;
  return `${parts.join(", ")}.${one ? ` Result: ${one}` : ""}`;
}

/** Runs a replay and answers the form: the summary, or an expected error's message; `area` is the layout to refresh. */
export async function replayAnswer(area: "/app" | "/account", run: () => Promise<ReplayOutcome>): Promise<ReplayState> {
  try {
    const outcome = await run();
    revalidatePath(area, "layout");
    return { message: replaySummary(outcome), error: null };
  } catch (error) {
    if (isAppError(error)) return { message: null, error: error.message };
    throw error;
  }
}
