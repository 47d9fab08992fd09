/**
 * Replay with an answer: requeue stored events, let the worker run them
 * through the same guards, and count how they ended. Used by the replay
 * routes and the dashboard's Replay buttons (the operator's Inbox and a
 * member's /account/events): one path, so the scope and the audit row are the
 * same wherever a replay starts.
 */
import type { z } from "zod";
import type { Actor } from "../audit/scripts";
import type { Engine } from "../engine/types";
import * as inbox from "./scripts";

type ReplayFilter = z.input<typeof inbox.replayMany.args>["filter"];

/**
 * Replays one event for `asAccountId` (a key or member: only their own
 * account's; null: the operator), audited with `actor` in the requeue's
 * transaction, and waits for how it ended.
 */
export async function replayOne(
  run: Engine["run"],
  args: { inboxEventId: string; asAccountId: string | null; actor: Actor },
  step: () => Promise<void>,
): Promise<ReplayOutcome> {
  await run(inbox.replay, args);
  return awaitOutcomes(run, [args.inboxEventId], step);
}

/** Operator: replays every dead event or a window's (audited with `actor`), and waits for how they ended. */
export async function replayMatching(
  run: Engine["run"],
  args: { filter: ReplayFilter; limit?: number; actor: Actor },
  step: () => Promise<void>,
): Promise<ReplayOutcome> {
  const { inboxEventIds, more } = await run(inbox.replayMany, args);
  return awaitOutcomes(run, inboxEventIds, step, more);
}

export interface ReplayOutcome {
  requeued: number;
  applied: number;
  ignored: number;
  failed: number;
  dead: number;
  /** Still waiting for the worker when the answer was given (it will run them). */
  waiting: number;
  /** More events matched than one call requeues. */
  more: boolean;
  results: { id: string; status: string; result: string | null }[];
}

export const REPLAY_WAIT_MS = 10_000;

/**
 * Waits for the events to finish: `step` makes progress (embedded: a worker
 * pass; Convex: the scheduled worker is already coming, so it just waits).
 */
export async function awaitOutcomes(run: Engine["run"], ids: string[], step: () => Promise<void>, more = false, waitMs = REPLAY_WAIT_MS): Promise<ReplayOutcome> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const { events } = ids.length > 0 ? await run(inbox.statuses, { inboxEventIds: ids }) : { events: [] };
    const waiting = events.filter((e) => e.status === "received" || e.status === "processing").length;
    if (waiting === 0 || Date.now() > deadline) {
      const count = (status: string) => events.filter((e) => e.status === status).length;
      return {
        requeued: ids.length,
        applied: count("applied"),
        ignored: count("ignored"),
        failed: count("failed"),
        dead: count("dead"),
        waiting,
        more,
        results: events.map(({ id, status, result }) => ({ id, status, result })),
      };
    }
    await step();
  }
}
