import { z } from "zod";
import { authenticate, requireOperatorPrincipal } from "@/lib/http/auth";
import { json, readJson, requireSameOrigin, route } from "@/lib/http/api";
import { workerStep } from "@/lib/inbox/kick";
import { awaitOutcomes } from "@/lib/inbox/replay";
import * as inbox from "@/lib/inbox/scripts";
import { getRuntime } from "@/lib/runtime";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

const body = z.union([
  z.strictObject({ dead: z.literal(true), limit: z.number().int().min(1).max(inbox.REPLAY_MANY_MAX).optional() }),
  z.strictObject({ fromMs: z.number().int().min(0), toMs: z.number().int().min(0), limit: z.number().int().min(1).max(inbox.REPLAY_MANY_MAX).optional() }),
]);

/**
 * Operator: replays every dead event ({ "dead": true }) or every event that
 * arrived in [fromMs, toMs), at most 500 a call; answers how many ended
 * applied and ignored (and whether more matched).
 */
export const POST = route(async (request: Request) => {
  requireSameOrigin(request);
  requireOperatorPrincipal(await authenticate(request));
  const args = parseInput(body, await readJson(request), "body");
  const { engine } = getRuntime();
  const filter = "dead" in args ? { kind: "dead" as const } : { kind: "window" as const, fromMs: args.fromMs, toMs: args.toMs };
  const { inboxEventIds, more } = await engine.run(inbox.replayMany, { filter, ...(args.limit ? { limit: args.limit } : {}) });
  return json(await awaitOutcomes(engine.run.bind(engine), inboxEventIds, workerStep(), more));
});
