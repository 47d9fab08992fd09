import { z } from "zod";
import { actorOf } from "@/lib/http/auth";
import { json, readJson, requireOperator, requireSameOrigin, route } from "@/lib/http/api";
import { workerStep } from "@/lib/inbox/kick";
import { replayMatching } from "@/lib/inbox/replay";
import * as inbox from "@/lib/inbox/scripts";
import { getRuntime } from "@/lib/runtime";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

const body = z
  .strictObject({
    dead: z.literal(true).optional(),
    fromMs: z.number().int().min(0).max(8.64e15).optional(),
    toMs: z.number().int().min(0).max(8.64e15).optional(),
    limit: z.number().int().min(1).max(inbox.REPLAY_MANY_MAX).optional(),
  })
  .refine((b) => (b.dead === true) !== (b.fromMs !== undefined && b.toMs !== undefined), { message: 'send { "dead": true }, or both fromMs and toMs', path: ["dead"] })
  .refine((b) => b.fromMs === undefined || b.toMs === undefined || b.fromMs < b.toMs, { message: "fromMs must be before toMs", path: ["fromMs"] });

/**
 * Operator: replays every dead event ({ "dead": true }) or every event that
 * arrived in [fromMs, toMs), at most 500 a call; answers how many ended
 * applied and ignored (and whether more matched). Audited with the operator
 * in the requeue's transaction.
 */
export const POST = route(async (request: Request) => {
  requireSameOrigin(request);
  const principal = await requireOperator(request);
  const args = parseInput(body, await readJson(request), "body");
  const { engine } = getRuntime();
  const filter = args.dead ? { kind: "dead" as const } : { kind: "window" as const, fromMs: args.fromMs!, toMs: args.toMs! };
  return json(await replayMatching(engine.run.bind(engine), { filter, ...(args.limit ? { limit: args.limit } : {}), actor: actorOf(principal) }, workerStep()));
});
