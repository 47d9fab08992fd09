/**
 * Input shapes for the stand-in's operator surface, shared by the admin API
 * (app/api/v1/standin/**) and the Provider page's server actions.
 */
import { z } from "zod";
import { STANDIN_PLANS } from "./catalog";
import { FAULT_KINDS, setFaultArgs } from "./scripts";
import { BILLING_EVENT_TYPES, COPIES_MAX, WEBHOOK_INTAKE_PATH } from "./webhooks";

/** POST /api/v1/standin/faults: a switch to turn on, or `{ clear: kind | "all" }`. */
export const faultRequest = z.union([setFaultArgs, z.strictObject({ clear: z.enum([...FAULT_KINDS, "all"]) })]);

/** PUT /api/v1/standin/accounts/:id/limits: a number, null (unlimited) or "plan" (back to the plan's limit). */
export const limitRequest = z.strictObject({
  featureCode: z.string().regex(/^[A-Za-z0-9_.\-]{1,100}$/, "a feature code such as tokens or clicks"),
  limitMax: z.union([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.null(), z.literal("plan")]),
});

/** POST /api/v1/standin/webhooks. */
export const webhookRequest = z.strictObject({
  type: z.enum(BILLING_EVENT_TYPES),
  accountId: z.string().regex(/^acct_[0-9a-z]{20}$/, "an account id"),
  planCode: z.enum(STANDIN_PLANS.map((p) => p.code) as [string, ...string[]]).optional(),
  eventTimestampMs: z.number().int().min(0).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  copies: z.number().int().min(1).max(COPIES_MAX).default(1),
  intakeUrl: z.url({ protocol: /^https?$/ }).optional(),
});

/** This server's own webhook intake, from the request's origin. */
export function defaultIntakeUrl(origin: string): string {
  return new URL(WEBHOOK_INTAKE_PATH, origin).toString();
}
