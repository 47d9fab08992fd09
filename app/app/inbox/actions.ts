"use server";

import { actorOf } from "@/lib/http/auth";
import { requireOperatorSession } from "@/lib/http/session";
import { workerStep } from "@/lib/inbox/kick";
import { replayMatching, replayOne } from "@/lib/inbox/replay";
import { getRuntime } from "@/lib/runtime";
import { replayAnswer, type ReplayState } from "./replay-answer";

/** Replays one stored event through the same guards (operator). */
export async function replayEventAction(_previous: ReplayState, form: FormData): Promise<ReplayState> {
  const { principal } = await requireOperatorSession();
  const { engine } = getRuntime();
  const inboxEventId = String(form.get("inboxEventId") ?? "");
  return replayAnswer("/app", () => replayOne(engine.run.bind(engine), { inboxEventId, asAccountId: null, actor: actorOf(principal) }, workerStep()));
}

/** Replays every dead event, or every event that arrived in a time window (operator). */
export async function replayManyAction(_previous: ReplayState, form: FormData): Promise<ReplayState> {
  const { principal } = await requireOperatorSession();
  const { engine } = getRuntime();
  const kind = String(form.get("kind") ?? "");
  return replayAnswer("/app", async () => {
    let filter: { kind: "dead" } | { kind: "window"; fromMs: number; toMs: number };
    if (kind === "dead") filter = { kind: "dead" };
    else {
      // datetime-local values are read as UTC, as the page shows every time in UTC.
      const fromMs = Date.parse(`${String(form.get("from") ?? "")}Z`);
      const toMs = Date.parse(`${String(form.get("to") ?? "")}Z`);
      filter = { kind: "window", fromMs: Number.isFinite(fromMs) ? fromMs : -1, toMs: Number.isFinite(toMs) ? toMs : -1 };
    }
    return replayMatching(engine.run.bind(engine), { filter, actor: actorOf(principal) }, workerStep());
  });
}
