import { defaultIntakeUrl, webhookRequest } from "@/lib/standin/admin";
import { sendStandinWebhook } from "@/lib/standin/webhooks";
import { json, readJson, requireOperator, requireSameOrigin, route } from "@/lib/http/api";
import { audit } from "@/lib/audit/audit";
import { getRuntime } from "@/lib/runtime";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

/**
 * Signs a Kinde-shaped billing event with the stand-in's key and delivers it
 * (`copies` times, one webhook-id) to `intakeUrl`, by default this server's
 * /api/webhooks/kinde. Answers with the event, the webhook-id and each
 * delivery's status.
 */
export const POST = route(async (request: Request) => {
  requireSameOrigin(request);
  const principal = await requireOperator(request);
  const body = parseInput(webhookRequest, await readJson(request), "body");
  const runtime = getRuntime();
  const { engine, standin, config } = runtime;
  const result = await sendStandinWebhook(
    { run: engine.run.bind(engine), nowMs: Date.now },
    standin,
    { ...body, intakeUrl: body.intakeUrl ?? defaultIntakeUrl(new URL(request.url).origin) },
    { timeoutMs: config.providerTimeoutMs },
  );
  const { token: _token, ...answer } = result;
  await audit(principal, "standin.webhook", body.accountId ?? "standin", { type: body.type, copies: body.copies ?? 1 });
  return json(answer);
});
