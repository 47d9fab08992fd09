/**
 * The stand-in's "send webhook": it signs a Kinde-shaped event with its own
 * key and POSTs it, the way Kinde delivers one (a raw RS256 JWT, Content-Type
 * application/jwt, a webhook-id header that stays the same on every copy), to
 * an intake URL — by default this server's /api/webhooks/kinde. The Engine
 * Room, the Provider page and the browser tests use it.
 *
 * A plan event sent "now" also changes the stand-in's own agreement first, as
 * Kinde would have before telling you, so a re-read after the event sees the
 * new plan. An event sent with an earlier event time is a replay of history
 * and changes nothing in the stand-in.
 */
import { SignJWT } from "jose";
import { randomBytes } from "node:crypto";
import * as accounts from "../accounts/scripts";
import { AppError } from "../errors";
import { makeId } from "../ids";
import type { OrchestrationContext } from "../orchestrations/context";
import { DEFAULT_PLAN_CODE, planOf } from "./catalog";
import type { StandinProvider } from "./provider";
import * as standin from "./scripts";

export const WEBHOOK_INTAKE_PATH = "/api/webhooks/kinde";

/** Kinde's billing event types (shared/spec/kinde-api.md §6). */
export const BILLING_EVENT_TYPES = [
  "customer.plan_changed",
  "customer.plan_assigned",
  "customer.agreement_created",
  "customer.agreement_cancelled",
  "customer.payment_succeeded",
  "customer.payment_failed",
  "customer.invoice_overdue",
  "customer.meter_usage_updated",
] as const;
export type BillingEventType = (typeof BILLING_EVENT_TYPES)[number];

const PLAN_EVENTS: readonly BillingEventType[] = ["customer.plan_changed", "customer.plan_assigned", "customer.agreement_created"];
export const COPIES_MAX = 10;

/** The decoded payload, as Kinde documents it. */
export interface KindeEvent {
  type: string;
  event_id: string;
  timestamp: string;
  event_timestamp: string;
  source: "admin" | "api" | "user";
  data: Record<string, unknown>;
}

export interface SendWebhookInput {
  intakeUrl: string;
  type: BillingEventType;
  accountId: string;
  /** For plan events: the plan moved to (required). */
  planCode?: string;
  /** When the change happened; default now. An earlier time replays history (the stand-in is not changed). */
  eventTimestampMs?: number;
  /** Fields merged over the default data (Kinde's billing `data` is undocumented, so it is yours to shape). */
  data?: Record<string, unknown>;
  /** How many identical deliveries (same webhook-id, same token), one after another; default 1. */
  copies?: number;
}

export interface Delivery {
  status: number | null;
  error: string | null;
  /** The first 300 characters of the answer. */
  body: string;
}

export interface SendWebhookResult {
  webhookId: string;
  event: KindeEvent;
  token: string;
  deliveries: Delivery[];
}

const nodeRandom = (n: number) => randomBytes(n);

/** Builds the event for an account, changing the stand-in's plan first when the event says so. */
export async function buildStandinEvent(ctx: Pick<OrchestrationContext, "run" | "nowMs">, input: Omit<SendWebhookInput, "intakeUrl" | "copies">): Promise<KindeEvent> {
  const account = await ctx.run(accounts.get, { id: input.accountId });
  if (!account) throw new AppError("not_found", `No account ${input.accountId}.`);
  const nowMs = ctx.nowMs();
  const eventTimestampMs = input.eventTimestampMs ?? nowMs;
  const replay = eventTimestampMs < nowMs - 60_000;
  const data: Record<string, unknown> = {
    // Part C's live payload: user_id, customer_id, customer_type, and the plan at data.plan.key.
    user_id: account.id,
    customer_id: account.kindeCustomerId ?? account.id,
    customer_type: "user",
  };
  if (PLAN_EVENTS.includes(input.type) || input.type === "customer.agreement_cancelled") {
    const planCode = input.type === "customer.agreement_cancelled" ? (input.planCode ?? DEFAULT_PLAN_CODE) : input.planCode;
    const plan = planCode ? planOf(planCode) : undefined;
    if (!plan) throw new AppError("invalid_input", `planCode: a plan event needs a plan of the stand-in's catalog (${planCode ?? "none given"})`);
    if (!replay) await ctx.run(standin.changePlan, { accountId: account.id, planCode: plan.code });
    data.plan = { key: plan.code, code: plan.code, name: plan.name };
  }
  return {
    type: input.type,
    event_id: makeId("event", nodeRandom),
    timestamp: new Date(nowMs).toISOString(),
    event_timestamp: new Date(eventTimestampMs).toISOString(),
    source: "admin",
    data: { ...data, ...input.data },
  };
}

export async function signStandinEvent(provider: StandinProvider, event: KindeEvent): Promise<string> {
  const { kid, privateKey } = await provider.signingKey();
  return new SignJWT({ ...event }).setProtectedHeader({ alg: "RS256", kid, typ: "JWT" }).sign(privateKey);
}

/** POSTs a signed webhook the way Kinde does. Never throws for an answer; a network failure is recorded. */
export async function postWebhook(url: string, token: string, webhookId: string, timeoutMs: number, fetchImpl: typeof fetch = fetch): Promise<Delivery> {
  try {
    const response = await fetchImpl(url, {
      method: "POST",
      headers: { "content-type": "application/jwt", "webhook-id": webhookId },
      body: token,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "manual",
    });
    const body = (await response.text().catch(() => "")).slice(0, 300);
    return { status: response.status, error: null, body };
  } catch (error) {
    const name = (error as { name?: string }).name;
    return { status: null, error: name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : (error as Error).message, body: "" };
  }
}

export async function sendStandinWebhook(
  ctx: Pick<OrchestrationContext, "run" | "nowMs">,
  provider: StandinProvider,
  input: SendWebhookInput,
  options: { timeoutMs?: number; fetch?: typeof fetch } = {},
): Promise<SendWebhookResult> {
  const copies = input.copies ?? 1;
  if (!Number.isInteger(copies) || copies < 1 || copies > COPIES_MAX) throw new AppError("invalid_input", `copies: 1 to ${COPIES_MAX}`);
  const event = await buildStandinEvent(ctx, input);
  const token = await signStandinEvent(provider, event);
  const webhookId = makeId("msg", nodeRandom);
  const deliveries: Delivery[] = [];
  for (let i = 0; i < copies; i++) deliveries.push(await postWebhook(input.intakeUrl, token, webhookId, options.timeoutMs ?? 10_000, options.fetch));
  return { webhookId, event, token, deliveries };
}
