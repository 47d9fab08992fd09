"use server";

import { headers } from "next/headers";
import { audit } from "@/lib/audit/audit";
import { isAppError } from "@/lib/errors";
import { requireOperatorSession } from "@/lib/http/session";
import { httpRoomDeps } from "@/lib/inbox/engine-room/http";
import { articleCheckpoints, runSequence, type Checkpoint, type RunReport } from "@/lib/inbox/engine-room/run";
import { isArticleSequence, parseSequence } from "@/lib/inbox/engine-room/sequence";
import { getRuntime } from "@/lib/runtime";

export interface RoomState {
  error: string | null;
  naive: RunReport | null;
  pipeline: RunReport | null;
  /** The article's checkpoints, when its sequence was run. */
  checkpoints: Checkpoint[] | null;
}

/** Runs the sequence against the naive handler, then the pipeline, each on a fresh test account; audited. */
export async function runEngineRoomAction(_previous: RoomState, form: FormData): Promise<RoomState> {
  const { principal } = await requireOperatorSession();
  const runtime = getRuntime();
  const empty = { naive: null, pipeline: null, checkpoints: null };
  if (runtime.config.provider !== "standin") {
    return { ...empty, error: "The Engine Room signs its deliveries with the stand-in's key; with TOLLBOOTH_PROVIDER=kinde the endpoint trusts only Kinde's keys, so run it with the stand-in." };
  }
  const eventsText = String(form.get("events") ?? "");
  const deliveriesText = String(form.get("deliveries") ?? "");
  try {
    const sequence = parseSequence(eventsText, deliveriesText);
    const h = await headers();
    const host = h.get("x-forwarded-host") ?? h.get("host");
    if (!host) return { ...empty, error: "The request has no Host header, so the Engine Room cannot reach this server's endpoint." };
    const proto = h.get("x-forwarded-proto") ?? "http";
    const deps = httpRoomDeps(runtime, `${proto}://${host}`);
    const naive = await runSequence(deps, sequence, "naive");
    const pipeline = await runSequence(deps, sequence, "pipeline");
    await audit(principal, "engine_room.run", "engine room", {
      deliveries: deliveriesText.slice(0, 500),
      naiveAccountId: naive.accountId,
      pipelineAccountId: pipeline.accountId,
      copies: pipeline.copies,
      stored: pipeline.stored,
    });
    return { error: null, naive, pipeline, checkpoints: isArticleSequence(eventsText, deliveriesText) ? articleCheckpoints(naive, pipeline) : null };
  } catch (error) {
    if (isAppError(error)) return { ...empty, error: error.message };
    return { ...empty, error: `The run stopped: ${(error as Error).message}` };
  }
}
