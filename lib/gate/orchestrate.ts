/**
 * The gate's orchestrations: the code the API, the Concurrency Lab and the
 * sweeper schedule call. Not transactions: they run the gate's scripts and,
 * between them, read the billing provider.
 *
 * The reserve path (one transaction on the hot path):
 *   1. gate.reserve reads the key, the rate window, the cached limit and the
 *      budget, and decides in one transaction. With a fresh (or usably stale)
 *      cached limit that is the whole path.
 *   2. When the cached limit is too old, gate.reserve writes nothing and
 *      answers `needs_limit`. refreshLimit then claims the read
 *      (gate.claimLimitRead: at most one read per account and feature a
 *      minute, across servers), asks the provider outside any transaction,
 *      stores the answer (gate.storeLimit) or the failure
 *      (gate.recordLimitFailure), and gate.reserve runs again.
 *
 * On Convex a write conflict that outlives Convex's own retries is retried
 * here only for reserve (keyed: a retry cannot hold twice) and settle (a job
 * settles once): random, growing waits up to 1 s, at most 8 tries. Charge and
 * extend are not retried here (a charge without a step number is not safe to
 * repeat); their caller sees the error.
 */
import type { Engine } from "../engine/types";
import { providerAccountOf } from "../provider/account";
import { isProviderError, type BillingProvider } from "../provider/port";
import type { ResultOf } from "../scripts/define";
import { LIMIT_READ_PENDING_MAX_MS } from "./freshness";
import * as gate from "./scripts";
import { leaseMs as leaseMsFromEnv, SWEEP_BATCH, SWEEP_BATCHES_PER_RUN } from "./settings";

export interface GateContext {
  run: Engine["run"];
  provider: Pick<BillingProvider, "name" | "readLimit">;
  nowMs(): number;
  log(message: string): void;
  /** How long a hold lives without a sign of life (default: TOLLBOOTH_GATE_LEASE_MS or 2 minutes). */
  leaseMs?: number;
  /** Waits between conflict retries; tests pass one that does not sleep. */
  sleep?: (ms: number) => Promise<void>;
}

export const CONFLICT_TRIES_MAX = 8;
export const CONFLICT_WAIT_MAX_MS = 1_000;
const CONFLICT_WAIT_FIRST_MS = 15;
/** How many times reserve and extend go back to the provider when the limit vanished again meanwhile. */
const LIMIT_ROUNDS_MAX = 3;

let envLeaseMs: number | undefined;
function leaseOf(ctx: GateContext): number {
  return ctx.leaseMs ?? (envLeaseMs ??= leaseMsFromEnv());
}

/** Convex's error when a mutation kept conflicting after its own retries. */
export function isWriteConflict(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  return /changed while this mutation was being run|OptimisticConcurrencyControlFailure|write conflict/i.test(message);
}

/** The wait before try `attempt + 1` (attempt ≥ 1): random, growing, never above 1 s. */
export function conflictWaitMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(CONFLICT_WAIT_MAX_MS, CONFLICT_WAIT_FIRST_MS * 2 ** (attempt - 1));
  return Math.floor(ceiling / 2 + random() * (ceiling / 2));
}

/** Runs `call` until it does not fail with a write conflict, at most CONFLICT_TRIES_MAX times. Only for calls that are safe to repeat. */
export async function retryConflicts<T>(ctx: Pick<GateContext, "sleep" | "log">, call: () => Promise<T>): Promise<T> {
  const sleep = ctx.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!isWriteConflict(error) || attempt >= CONFLICT_TRIES_MAX) throw error;
      await sleep(conflictWaitMs(attempt));
    }
  }
}

type ReserveResult = ResultOf<typeof gate.reserve>;
type LimitWait = { outcome: "needs_limit" } | { outcome: "limit_pending"; retryAfterMs: number };
export type ReserveOutcome = Exclude<ReserveResult, LimitWait>;
type ExtendResult = ResultOf<typeof gate.extend>;
export type ExtendOutcome = Exclude<ExtendResult, LimitWait>;

const changedMeanwhile = {
  outcome: "limit_unavailable" as const,
  retryAfterMs: 1_000,
  reason: "The plan limit could not be settled while this request waited (it was dropped again, or another server's read never answered); try again in a moment.",
};

/**
 * Runs a script that needs the cached limit until it answers with something
 * else: on `needs_limit` it reads the provider (at most LIMIT_ROUNDS_MAX
 * times), on `limit_pending` it waits for the read in flight (here, or on
 * another server) for at most LIMIT_READ_PENDING_MAX_MS.
 */
async function withLimit<R extends { outcome: string }>(
  ctx: GateContext,
  accountId: () => Promise<{ accountId: string; feature: string }>,
  attempt: () => Promise<R>,
): Promise<Exclude<R, LimitWait> | typeof changedMeanwhile> {
  const sleep = ctx.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const deadline = ctx.nowMs() + LIMIT_READ_PENDING_MAX_MS;
  let rounds = 0;
  let waits = 0;
  for (;;) {
    const readsBefore = readsDone;
    const result = await attempt();
    if (result.outcome === "needs_limit") {
      if (++rounds > LIMIT_ROUNDS_MAX) return changedMeanwhile;
      const { accountId: id, feature } = await accountId();
      await refreshLimit(ctx, id, feature);
      continue;
    }
    if (result.outcome === "limit_pending") {
      if (ctx.nowMs() >= deadline) return changedMeanwhile;
      const { accountId: id, feature } = await accountId();
      const running = readsInFlight.get(flightKeyOf(ctx, id, feature));
      if (running) await running;
      // A read in this process finished while the attempt ran: its answer is stored, so try again at once.
      else if (readsDone !== readsBefore) continue;
      // Another server's read: poll with short, growing waits (2, 4, 8 … ms), never longer than the script asks.
      else await sleep(Math.min((result as unknown as { retryAfterMs: number }).retryAfterMs, 2 ** Math.min(++waits, 8)));
      continue;
    }
    return result as Exclude<R, LimitWait>;
  }
}

export interface ReserveInput {
  accountId: string;
  key: string;
  estimate: number;
  feature?: string;
}

/** Check and hold, reading the provider first only when the cached limit is too old. */
export async function reserveJob(ctx: GateContext, input: ReserveInput): Promise<ReserveOutcome> {
  const feature = input.feature ?? gate.DEFAULT_FEATURE;
  return withLimit(
    ctx,
    async () => ({ accountId: input.accountId, feature }),
    () => retryConflicts(ctx, () => ctx.run(gate.reserve, { ...input, feature, leaseMs: leaseOf(ctx) })),
  );
}

export interface StepInput {
  jobId: string;
  tokens: number;
  step?: number;
  /** The account that asks (null: the operator or the server). */
  asAccountId: string | null;
}

export async function chargeJob(ctx: GateContext, input: StepInput) {
  return ctx.run(gate.charge, { ...input, leaseMs: leaseOf(ctx) });
}

/** Asks for a bigger hold, reading the provider first only when the cached limit is too old. */
export async function extendJob(ctx: GateContext, input: StepInput): Promise<ExtendOutcome> {
  return withLimit(
    ctx,
    async () => {
      const { job } = await ctx.run(gate.getJob, { jobId: input.jobId, asAccountId: input.asAccountId });
      return { accountId: job.accountId, feature: job.feature };
    },
    () => ctx.run(gate.extend, { ...input, leaseMs: leaseOf(ctx) }),
  );
}

export interface SettleInput {
  jobId: string;
  used?: number;
  outcome: "completed" | "failed" | "cancelled";
  asAccountId: string | null;
}

export async function settleJob(ctx: Pick<GateContext, "run" | "log" | "sleep">, input: SettleInput) {
  return retryConflicts(ctx, () => ctx.run(gate.settleJob, input));
}

/** One sweeper run: expired holds back to their budgets, in bounded batches. */
export async function sweepExpiredJobs(ctx: Pick<GateContext, "run" | "log" | "sleep">): Promise<{ expired: number }> {
  let expired = 0;
  for (let batch = 0; batch < SWEEP_BATCHES_PER_RUN; batch++) {
    const result = await retryConflicts(ctx, () => ctx.run(gate.sweep, { limit: SWEEP_BATCH }));
    expired += result.expired.length;
    if (!result.more) break;
  }
  if (expired > 0) ctx.log(`gate sweeper: ${expired} job${expired === 1 ? "" : "s"} expired and settled at their recorded usage`);
  return { expired };
}

// ------------------------------------------------------------------ the limit refresh

/** Reads in flight in this process, so concurrent admissions for one account wait on one provider call. */
const readsInFlight = new Map<string, Promise<void>>();
/** Counts provider reads this process finished (stored or failed); a waiter compares it before and after its attempt. */
let readsDone = 0;

/**
 * Reads one account's limit for one feature from the provider, at most once a
 * minute (claimed in the database, so other servers wait too), and stores it.
 * A failure is stored too: the last value then serves, stale, for up to 10
 * minutes after it was read. A feature the plan does not grant is a limit of 0.
 */
function flightKeyOf(ctx: Pick<GateContext, "provider">, accountId: string, feature: string): string {
  return `${ctx.provider.name}\u0000${accountId}\u0000${feature}`;
}

export function refreshLimit(ctx: GateContext, accountId: string, feature: string): Promise<void> {
  const flightKey = flightKeyOf(ctx, accountId, feature);
  const running = readsInFlight.get(flightKey);
  if (running) return running;
  const read = (async () => {
    const claim = await ctx.run(gate.claimLimitRead, { accountId, feature, source: ctx.provider.name });
    if (!claim.claimed) return;
    const who = providerAccountOf(claim.account);
    const base = { accountId, feature, claimedAtMs: claim.claimedAtMs, source: ctx.provider.name };
    let limit;
    try {
      limit = await ctx.provider.readLimit(who, feature);
    } catch (error) {
      if (isProviderError(error) && error.kind === "not_found") {
        await ctx.run(gate.storeLimit, { ...base, limit: { kind: "limited", max: 0 }, note: `The plan grants no ${feature}: ${error.message}` });
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      ctx.log(`gate: the ${feature} limit of ${accountId} could not be read from ${ctx.provider.name}: ${message}`);
      await ctx.run(gate.recordLimitFailure, { accountId, feature, claimedAtMs: claim.claimedAtMs, error: message.slice(0, 500) || "no answer" });
      return;
    }
    if (limit.kind === "limited" && !(Number.isSafeInteger(limit.max) && limit.max >= 0)) {
      await ctx.run(gate.recordLimitFailure, { accountId, feature, claimedAtMs: claim.claimedAtMs, error: `The provider answered a limit that is not a whole number: ${limit.max}` });
      return;
    }
    await ctx.run(gate.storeLimit, { ...base, limit: limit.kind === "limited" ? { kind: "limited", max: limit.max } : { kind: "unlimited" }, note: null });
  })().finally(() => {
    readsInFlight.delete(flightKey);
    readsDone++;
  });
  readsInFlight.set(flightKey, read);
  return read;
}
