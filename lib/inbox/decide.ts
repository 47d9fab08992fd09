/**
 * The inbox's pure decisions. Time is always an argument.
 */
import type { InboxEvent } from "./repo";

/** Most events one claim takes. */
export const CLAIM_BATCH_MAX = 25;
/** How long a claim holds an event; a worker that dies loses it when this runs out. */
export const LEASE_MS = 30_000;
/** The Engine Room's drill: a stopped worker's lease, short so the demonstration need not wait 30 s. */
export const DRILL_LEASE_MS = 1_000;
/** Waits after the 1st..5th failed attempt (Part C: 5 s, 30 s, 2 min, 10 min, 1 h). */
export const RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000] as const;
/** The sixth failed attempt makes an event dead. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export type AfterFailure = { status: "failed"; nextAttemptAtMs: number } | { status: "dead" };

/** What happens after attempt number `attempts` (1-based) failed at `nowMs`. */
export function afterFailure(attempts: number, nowMs: number): AfterFailure {
  if (!Number.isInteger(attempts) || attempts < 1) throw new Error(`Invariant broken: a failed attempt number must be 1 or more, got ${attempts}`);
  if (attempts >= MAX_ATTEMPTS) return { status: "dead" };
  return { status: "failed", nextAttemptAtMs: nowMs + RETRY_DELAYS_MS[attempts - 1]! };
}

/** The next attempt's time, or null when there is none (dead). */
export function nextAttemptAt(attempts: number, nowMs: number): number | null {
  const next = afterFailure(attempts, nowMs);
  return next.status === "failed" ? next.nextAttemptAtMs : null;
}

/**
 * The plan-time guard (Part C): a plan change applies only if it happened
 * after the plan change already stored. Equal times are a tie and the later
 * arrival is ignored.
 */
export function planChangeApplies(storedChangedAtMs: number, eventAtMs: number): boolean {
  return eventAtMs > storedChangedAtMs;
}

/** Event-time order: oldest event first, ties broken by id so the order is total. */
export function byEventTime(a: Pick<InboxEvent, "occurredAtMs" | "id">, b: Pick<InboxEvent, "occurredAtMs" | "id">): number {
  return a.occurredAtMs - b.occurredAtMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Which candidates one claim takes: the `limit` oldest by event time among
 * the new, the due failed and the lease-expired ones (each list already
 * bounded by the caller's indexed reads). The order is a courtesy; nothing
 * depends on it for correctness.
 */
export function chooseClaims<E extends Pick<InboxEvent, "occurredAtMs" | "id">>(candidates: readonly E[], limit: number): E[] {
  const seen = new Set<string>();
  const unique = candidates.filter((e) => (seen.has(e.id) ? false : (seen.add(e.id), true)));
  return unique.sort(byEventTime).slice(0, limit);
}

/** A claim's lease length: the drill's short lease when this attempt is the one the drill stops. */
export function leaseFor(event: Pick<InboxEvent, "stopAtAttempt">, attempt: number): { leaseMs: number; stopMidApply: boolean } {
  const stopMidApply = event.stopAtAttempt !== null && event.stopAtAttempt === attempt;
  return { leaseMs: stopMidApply ? DRILL_LEASE_MS : LEASE_MS, stopMidApply };
}

/**
 * Time of an event from Kinde's payload. Kinde sends RFC 3339 with up to
 * nanoseconds and an offset ("2026-10-21T02:29:23.403633+11:00"); the events
 * API types it as an integer. Fractions beyond milliseconds are truncated.
 * Returns null for anything else.
 */
export function parseEventTime(value: unknown): number | null {
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value <= 0) return null;
    // Seconds (10 digits today) or milliseconds (13 digits).
    return Math.trunc(value < 1e11 ? value * 1000 : value);
  }
  if (typeof value !== "string" || value.length > 64) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|z|[+-]\d{2}:?\d{2})$/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction = "", zone] = match;
  const ms = Number((fraction + "000").slice(0, 3));
  let offsetMinutes = 0;
  if (zone !== "Z" && zone !== "z") {
    const sign = zone!.startsWith("-") ? -1 : 1;
    const digits = zone!.slice(1).replace(":", "");
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4)));
  }
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  const utc = Date.UTC(Number(y), month - 1, day, hour, minute, second, ms) - offsetMinutes * 60_000;
  return Number.isFinite(utc) ? utc : null;
}

/** The event time Part C uses: event_timestamp (when the change happened), else timestamp (when it was sent). */
export function eventTimeOf(payload: { event_timestamp?: unknown; timestamp?: unknown }): number | null {
  return parseEventTime(payload.event_timestamp) ?? parseEventTime(payload.timestamp);
}
