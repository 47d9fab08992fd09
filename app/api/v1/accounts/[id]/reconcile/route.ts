import { notFound } from "@/lib/http/auth";
import { json, requireOperator, requireSameOrigin, route } from "@/lib/http/api";
import * as accounts from "@/lib/accounts/scripts";
import { reconcileNow } from "@/lib/meter/on-demand";
import * as meter from "@/lib/meter/scripts";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/**
 * Operator: reconciles one account now (every cycle of every feature) and
 * answers with what it found. `ok` is false when a repair was not confirmed;
 * the evidence and the run's error are stored either way, and the run is
 * audited with the operator.
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  requireSameOrigin(request);
  const principal = await requireOperator(request);
  const { id } = await params;
  const runtime = getRuntime();
  const account = /^acct_[0-9a-z]{20}$/.test(id) ? await runtime.engine.run(accounts.get, { id }) : null;
  if (!account) throw notFound("account", id);
  const summary = await reconcileNow(principal, account.id);
  const { run } = await runtime.engine.run(meter.getRun, { runId: summary.run.id });
  return json({ ok: summary.error === null, run, findings: summary.findings });
});
