/**
 * The gate's timings. The article's values are the defaults and the product's
 * values; the two environment variables exist so that tests with real
 * processes (the crash test) need not wait two real minutes for a lease. They
 * are read by the server (orchestrations pass the lease to the scripts) and by
 * the schedule list, so both engines agree.
 */
export const LEASE_MS = 2 * 60_000;
export const SWEEP_INTERVAL_MS = 30_000;
/** Jobs one sweeper transaction settles at most; a run takes batches until one comes back short or it has taken SWEEP_BATCHES_PER_RUN. */
export const SWEEP_BATCH = 100;
export const SWEEP_BATCHES_PER_RUN = 20;
export const LEASE_MS_MIN = 1_000;
export const LEASE_MS_MAX = 60 * 60_000;

function wholeFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = typeof process === "undefined" ? undefined : process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number of milliseconds from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** TOLLBOOTH_GATE_LEASE_MS: the lease a charge renews (default 2 minutes). For tests. */
export function leaseMs(): number {
  return wholeFromEnv("TOLLBOOTH_GATE_LEASE_MS", LEASE_MS, LEASE_MS_MIN, LEASE_MS_MAX);
}

/** TOLLBOOTH_GATE_SWEEP_INTERVAL_MS: how often the sweeper runs (default 30 s). For tests. */
export function sweepIntervalMs(): number {
  return wholeFromEnv("TOLLBOOTH_GATE_SWEEP_INTERVAL_MS", SWEEP_INTERVAL_MS, 100, 10 * 60_000);
}
