"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import type { FaultFormState } from "@/components/fault-switches";
import { isAppError } from "@/lib/errors";
import { audit } from "@/lib/audit/audit";
import { actorOf } from "@/lib/http/auth";
import { requireOperatorSession } from "@/lib/http/session";
import { getRuntime } from "@/lib/runtime";
import { defaultIntakeUrl, limitRequest, webhookRequest } from "@/lib/standin/admin";
import * as standin from "@/lib/standin/scripts";
import { sendStandinWebhook } from "@/lib/standin/webhooks";
import { parseInput } from "@/lib/validation";

const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();
const optionalNumber = (form: FormData, name: string) => (text(form, name) === "" ? undefined : Number(text(form, name)));

function refresh() {
  revalidatePath("/app/provider");
  revalidatePath("/app/reconciliation");
}

function failure(error: unknown): { error: string; done: null } {
  if (isAppError(error)) return { error: error.message, done: null };
  throw error;
}

export async function setFaultAction(_previous: FaultFormState, form: FormData): Promise<FaultFormState> {
  const { principal } = await requireOperatorSession();
  const kind = text(form, "kind");
  const raw: Record<string, unknown> = { kind };
  if (kind === "fail_writes" || kind === "rate_limit") raw.count = optionalNumber(form, "count");
  if (kind === "rate_limit") raw.resetSeconds = optionalNumber(form, "resetSeconds");
  if (kind === "drift") raw.amount = optionalNumber(form, "amount");
  if (kind === "hang") raw.count = optionalNumber(form, "count") ?? null;
  if (kind === "deny_scope") raw.scope = text(form, "scope");
  try {
    const fault = await getRuntime().engine.run(standin.setFault, parseInput(standin.setFaultArgs, raw, "switch"));
    await audit(principal, "standin.fault", fault.kind, raw);
    refresh();
    return { error: null, done: `Switch ${fault.kind} is on.` };
  } catch (error) {
    return failure(error);
  }
}

export async function clearFaultAction(form: FormData): Promise<void> {
  const { principal } = await requireOperatorSession();
  const kind = text(form, "kind");
  await getRuntime().engine.run(standin.clearFault, { kind: kind as "all" });
  await audit(principal, "standin.fault", `clear:${kind}`, { clear: kind });
  refresh();
}

export interface LimitFormState {
  error: string | null;
  done: string | null;
}

export async function setLimitAction(_previous: LimitFormState, form: FormData): Promise<LimitFormState> {
  const { principal } = await requireOperatorSession();
  const rawLimit = text(form, "limitMax");
  const accountId = text(form, "accountId");
  try {
    const body = parseInput(limitRequest, {
      featureCode: text(form, "featureCode"),
      limitMax: rawLimit === "" || rawLimit === "unlimited" ? null : rawLimit === "plan" ? "plan" : Number(rawLimit),
    });
    const { engine } = getRuntime();
    const actor = actorOf(principal);
    if (body.limitMax === "plan") await engine.run(standin.clearLimit, { accountId, featureCode: body.featureCode, actor });
    else await engine.run(standin.setLimit, { accountId, featureCode: body.featureCode, limitMax: body.limitMax, actor });
    refresh();
    const said = body.limitMax === "plan" ? "the plan's limit" : body.limitMax === null ? "unlimited" : body.limitMax.toLocaleString("en");
    return { error: null, done: `${body.featureCode} for ${accountId}: ${said}.` };
  } catch (error) {
    return failure(error);
  }
}

export interface WebhookFormState {
  error: string | null;
  done: string | null;
  deliveries: { status: number | null; error: string | null; body: string }[];
}

export async function sendWebhookAction(_previous: WebhookFormState, form: FormData): Promise<WebhookFormState> {
  const { principal } = await requireOperatorSession();
  const minutesAgo = optionalNumber(form, "minutesAgo");
  try {
    const body = parseInput(webhookRequest, {
      type: text(form, "type"),
      accountId: text(form, "accountId"),
      planCode: text(form, "planCode") || undefined,
      copies: optionalNumber(form, "copies") ?? 1,
      eventTimestampMs: minutesAgo ? Date.now() - Math.round(minutesAgo * 60_000) : undefined,
      intakeUrl: text(form, "intakeUrl") || undefined,
    });
    const h = await headers();
    const origin = `${h.get("x-forwarded-proto") ?? "http"}://${h.get("x-forwarded-host") ?? h.get("host")}`;
    const { engine, standin: provider, config } = getRuntime();
    const result = await sendStandinWebhook(
      { run: engine.run.bind(engine), nowMs: Date.now },
      provider,
      { ...body, intakeUrl: body.intakeUrl ?? defaultIntakeUrl(origin) },
      { timeoutMs: config.providerTimeoutMs },
    );
    await audit(principal, "standin.webhook", body.accountId, { type: body.type, copies: body.copies, webhookId: result.webhookId });
    refresh();
    return { error: null, done: `Sent ${result.event.type} (${result.event.event_id}) as ${result.webhookId}.`, deliveries: result.deliveries };
  } catch (error) {
    return { ...failure(error), deliveries: [] };
  }
}
