/**
 * The inbox's settings from the environment, checked with the rest at start
 * (lib/config.ts spreads these in).
 */
import { z } from "zod";

const emptyToUndefined = (value: unknown) => (value === "" ? undefined : value);

export const DEFAULT_WEBHOOK_MAX_AGE_HOURS = 7 * 24;

export const inboxEnvShape = {
  /** A token whose event time is older than this is refused (replay protection); longer than Kinde's 36 h of retries. */
  TOLLBOOTH_WEBHOOK_MAX_AGE_HOURS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(37, "at least 37 hours (Kinde retries for 36 hours)").max(24 * 365).default(DEFAULT_WEBHOOK_MAX_AGE_HOURS),
  ),
  /** Where a dead inbox event is posted as JSON; unset: nowhere (it is still on the dashboard and in /api/health). */
  TOLLBOOTH_ALERT_WEBHOOK_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
};

export interface InboxSettings {
  webhookMaxAgeMs: number;
  alertWebhookUrl: string | null;
}

export function toInboxSettings(env: { TOLLBOOTH_WEBHOOK_MAX_AGE_HOURS: number; TOLLBOOTH_ALERT_WEBHOOK_URL?: string }): InboxSettings {
  return { webhookMaxAgeMs: env.TOLLBOOTH_WEBHOOK_MAX_AGE_HOURS * 3_600_000, alertWebhookUrl: env.TOLLBOOTH_ALERT_WEBHOOK_URL ?? null };
}
