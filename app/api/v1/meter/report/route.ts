import { authenticate, requireOperatorPrincipal } from "@/lib/http/auth";
import { json, requireSameOrigin, route } from "@/lib/http/api";
import { runReporter } from "@/lib/meter/reporter";
import { getRuntime, orchestrationContext } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/** Operator: runs the reporter once now (it also runs every minute) and answers with what it did. */
export const POST = route(async (request: Request) => {
  requireSameOrigin(request);
  requireOperatorPrincipal(await authenticate(request));
  const runtime = getRuntime();
  const summary = await runReporter(orchestrationContext(runtime.engine, runtime.provider));
  return json({ reporter: summary });
});
