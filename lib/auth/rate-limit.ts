/**
 * A token bucket per API key, kept in the memory of the server process.
 *
 * Each key may make `ratePerMinute` requests a minute on average, with bursts
 * of up to that many (a full bucket). The decision is a pure function of the
 * bucket and the time; the limiter only stores buckets. It costs no database
 * write per request. Limits:
 *  - Per process: with N Next.js servers (for example on Convex, several
 *    instances) a key may make up to N × its rate. The embedded engine runs
 *    one server per data folder, so there the limit is exact.
 *  - A restart forgets the buckets (every key starts full).
 * The map is bounded: the least recently used buckets are dropped past
 * BUCKETS_MAX (a dropped bucket is full again, which errs on the side of the
 * caller, never of refusing).
 */
export interface Bucket {
  /** Whole tokens times 1000 (milli-tokens), so refill stays in integers. */
  milliTokens: number;
  updatedAtMs: number;
}

export interface TakeDecision {
  allowed: boolean;
  bucket: Bucket;
  /** When refused: whole seconds until one token is back (≥ 1). */
  retryAfterSeconds: number;
}

const MILLI = 1000;
const MINUTE_MS = 60_000;

/** Takes one token from `bucket` (or a full new bucket) at `nowMs`. */
export function take(bucket: Bucket | undefined, ratePerMinute: number, nowMs: number): TakeDecision {
  const capacity = ratePerMinute * MILLI;
  const start = bucket ?? { milliTokens: capacity, updatedAtMs: nowMs };
  const elapsedMs = Math.max(0, nowMs - start.updatedAtMs);
  // ratePerMinute tokens per 60,000 ms = ratePerMinute milli-tokens per 60 ms.
  const refill = Math.floor((elapsedMs * ratePerMinute * MILLI) / MINUTE_MS);
  const milliTokens = Math.min(capacity, start.milliTokens + refill);
  // Time is only advanced by what the refill used, so fractions are not lost.
  const usedMs = milliTokens === capacity ? elapsedMs : Math.floor((refill * MINUTE_MS) / (ratePerMinute * MILLI));
  const updatedAtMs = start.updatedAtMs + usedMs;
  if (milliTokens >= MILLI) {
    return { allowed: true, bucket: { milliTokens: milliTokens - MILLI, updatedAtMs }, retryAfterSeconds: 0 };
  }
  const missing = MILLI - milliTokens;
  const waitMs = Math.ceil((missing * MINUTE_MS) / (ratePerMinute * MILLI));
  return { allowed: false, bucket: { milliTokens, updatedAtMs }, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}

export const BUCKETS_MAX = 100_000;

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly max = BUCKETS_MAX) {}

  take(key: string, ratePerMinute: number, nowMs: number): TakeDecision {
    const decision = take(this.buckets.get(key), ratePerMinute, nowMs);
    this.buckets.delete(key); // re-insert: Map order is least recently used first
    this.buckets.set(key, decision.bucket);
    if (this.buckets.size > this.max) this.buckets.delete(this.buckets.keys().next().value!);
    return decision;
  }

  size(): number {
    return this.buckets.size;
  }
}
