import { authenticate, requireOperatorPrincipal } from "@/lib/http/auth";
import { json, readJson, requireSameOrigin, route } from "@/lib/http/api";
import { getRuntime } from "@/lib/runtime";
import * as usage from "@/lib/usage/scripts";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

/**
 * Operator: corrects a ledger row with a new negative row in that row's cycle.
 * {entryKey, units?, reason} → 201 with the correction, or 200 when the same
 * correction was already recorded.
 */
export const POST = route(async (request: Request) => {
  requireSameOrigin(request);
  requireOperatorPrincipal(await authenticate(request));
  const args = parseInput(usage.correct.args, await readJson(request), "body");
  const result = await getRuntime().engine.run(usage.correct, args);
  return json({ correction: result.entry, corrected: result.corrected, recorded: result.recorded }, result.recorded ? 201 : 200);
});
