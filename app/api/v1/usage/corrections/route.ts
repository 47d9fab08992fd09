import { actorOf } from "@/lib/http/auth";
import { json, readJson, requireOperator, requireSameOrigin, route } from "@/lib/http/api";
import { getRuntime } from "@/lib/runtime";
import * as usage from "@/lib/usage/scripts";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

/** The script's arguments without the actor: who corrects is the caller, never a field of the body. */
const correctionBody = usage.correct.args.omit({ actor: true });

/**
 * Operator: corrects a ledger row with a new negative row in that row's cycle.
 * {entryKey, units?, reason} → 201 with the correction, or 200 when the same
 * correction was already recorded. Audited with the operator in the
 * correction's transaction.
 */
export const POST = route(async (request: Request) => {
  requireSameOrigin(request);
  const principal = await requireOperator(request);
  const args = parseInput(correctionBody, await readJson(request), "body");
  const result = await getRuntime().engine.run(usage.correct, { ...args, actor: actorOf(principal) });
  return json({ correction: result.entry, corrected: result.corrected, recorded: result.recorded }, result.recorded ? 201 : 200);
});
