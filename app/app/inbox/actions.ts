"use server";

import { revalidatePath } from "next/cache";
import { isAppError } from "@/lib/errors";
import { requireOperatorSession } from "@/lib/http/session";
import { workerStep } from "@/lib/inbox/kick";
import { awaitOutcomes, type ReplayOutcome } from "@/lib/inbox/replay";
import * as inbox from "@/lib/inbox/scripts";
import { getRuntime } from "@/lib/runtime";

export interface ReplayState {
  message: string | null;
  error: string | null;
}

function summary(outcome: ReplayOutcome): string {
  if (outcome.requeued === 0) return "Nothing matched: no event was replayed.";
  const parts = [`${outcome.requeued} replayed`, `${outcome.applied} applied`, `${outcome.ignored} ignored`];
  if (outcome.failed) parts.push(`${outcome.failed} failed (will retry)`);
  if (outcome.dead) parts.push(`${outcome.dead} dead`);
  if (outcome.waiting) parts.push(`${outcome.waiting} still waiting for the worker`);
  if (outcome.more) parts.push("more matched: replay again for the rest");
  const one = outcome.requeued === 1 ? outcome.results[0]?.result : null;
  return `${parts.join(", ")}.${one ? ` Result: ${one}` : ""}`;
}

async function done(run: () => Promise<ReplayOutcome>): Promise<ReplayState> {
  try {
    const outcome = await run();
    revalidatePath("/app", "layout");
    return { message: summary(outcome), error: null };
  } catch (error) {
    if (isAppError(error)) return { message: null, error: error.message };
    throw error;
  }
}

/** Replays one stored event through the same guards (operator). */
export async function replayEventAction(_previous: ReplayState, form: FormData): Promise<ReplayState> {
  await requireOperatorSession();
  const { engine } = getRuntime();
  const id = String(form.get("inboxEventId") ?? "");
  return done(async () => {
    await engine.run(inbox.replay, { inboxEventId: id });
    return awaitOutcomes(engine.run.bind(engine), [id], workerStep());
  });
}

/** Replays every dead event, or every event that arrived in a time window (operator). */
export async function replayManyAction(_previous: ReplayState, form: FormData): Promise<ReplayState> {
  await requireOperatorSession();
  const { engine } = getRuntime();
  const kind = String(form.get("kind") ?? "");
  return done(async () => {
    let filter: { kind: "dead" } | { kind: "window"; fromMs: number; toMs: number };
    if (kind === "dead") filter = { kind: "dead" };
    else {
      // datetime-local values are read as UTC, as the page shows every time in UTC.
      const fromMs = Date.parse(`${String(form.get("from") ?? "")}Z`);
      const toMs = Date.parse(`${String(form.get("to") ?? "")}Z`);
      filter = { kind: "window", fromMs: Number.isFinite(fromMs) ? fromMs : -1, toMs: Number.isFinite(toMs) ? toMs : -1 };
    }
    const { inboxEventIds, more } = await engine.run(inbox.replayMany, { filter });
    return awaitOutcomes(engine.run.bind(engine), inboxEventIds, workerStep(), more);
  });
}
