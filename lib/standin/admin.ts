/**
 * Input shapes for the stand-in's operator surface, shared by the admin API
 * (app/api/v1/standin/**) and the Provider page's server actions.
 */
import { z } from "zod";
import { AppError } from "../errors";
import { parseInput } from "../validation";
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

/** A limit as a form sends it: digits, "unlimited" (no maximum), or blank for the plan's limit again. */
const limitField = z.preprocess(
  (v) => {
    if (typeof v !== "string") return v;
    const t = v.trim();
    if (t === "") return "plan";
    if (t.toLowerCase() === "unlimited") return null;
    return /^\d{1,16}$/.test(t) ? Number(t) : t;
  },
  z.union([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.null(), z.literal("plan")], {
    error: 'a whole number of units (0 or more), "unlimited", or blank for the plan\'s limit',
  }),
);

const planLimitsSchema = z.strictObject({
  accountId: z.string().regex(/^acct_[0-9a-z]{20}$/, "an account id"),
  planCode: z.enum(STANDIN_PLANS.map((p) => p.code) as [string, ...string[]], `one of the stand-in's plans (${STANDIN_PLANS.map((p) => p.code).join(", ")})`),
  /** Named as the form's fields are (limit.tokens), so a message names the field a person sees. */
  limit: z.record(z.string().regex(/^[A-Za-z0-9_.\-]{1,100}$/, "a feature code such as tokens or clicks"), limitField),
});

const LIMIT_FIELD_PREFIX = "limit.";

/**
 * The account page's plan-and-limits form: `accountId`, `planCode` and one
 * `limit.<feature>` field per feature. Parsed whole (a bad field is named and
 * nothing is written); any other field is refused by name.
 */
export function planLimitsForm(fields: Record<string, string>): { accountId: string; planCode: string; limits: Record<string, number | null | "plan"> } {
  const limits: Record<string, string> = {};
  const rest: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (name.startsWith(LIMIT_FIELD_PREFIX)) limits[name.slice(LIMIT_FIELD_PREFIX.length)] = value;
    else rest[name] = value;
  }
  if (Object.keys(limits).length > 20) throw new AppError("invalid_input", "limit: at most 20 features");
  const { limit, ...parsed } = parseInput(planLimitsSchema, { ...rest, limit: limits }, "form");
  return { ...parsed, limits: limit };
}
