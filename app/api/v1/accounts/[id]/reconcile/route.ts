import { authenticate, notFound, requireOperatorPrincipal } from "@/lib/http/auth";
import { json, requireSameOrigin, route } from "@/lib/http/api";
import * as accounts from "@/lib/accounts/scripts";
import { runReconciler } from "@/lib/meter/reconciler";
import * as meter from "@/lib/meter/scripts";
import { getRuntime, orchestrationContext } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/**
 * Operator: reconciles one account now (every cycle of every feature) and
 * answers with what it found. `ok` is false when a repair was not confirmed;
 * the evidence and the run's error are stored either way.
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  requireSameOrigin(request);
  requireOperatorPrincipal(await authenticate(request));
  const { id } = await params;
  const runtime = getRuntime();
  const account = /^acct_[0-9a-z]{20}$/.test(id) ? await runtime.engine.run(accounts.get, { id }) : null;
  if (!account) throw notFound("account", id);
  const summary = await runReconciler(orchestrationContext(runtime.engine, runtime.provider), { trigger: "on_demand", accountIds: [account.id] });
  const { run } = await runtime.engine.run(meter.getRun, { runId: summary.run.id });
  return json({ ok: summary.error === null, run, findings: summary.findings });
});
