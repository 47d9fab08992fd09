/**
 * The gate's transaction scripts (Part A). Each is one transaction on either
 * engine: it reads a few rows through indexes, asks a pure decision
 * (./decide.ts, ./freshness.ts, ./rate.ts) what to do, and writes the answer.
 * No script calls the provider: when the cached limit is too old, reserve and
 * extend answer `needs_limit` without writing, and the orchestration
 * (./orchestrate.ts) reads the provider outside any transaction and asks again.
 *
 * Callers: lib/gate/orchestrate.ts (the API, the worker client through the API,
 * the Concurrency Lab, the sweeper schedule) and the pages.
 */
import { z } from "zod";
import { AppError, invariant } from "../errors";
import { mutation, query } from "../scripts/define";
import type { Tx } from "../store/port";
import { cycleOf } from "../usage/cycle";
import { recordUsage } from "../usage/record";
import { featureCode } from "../usage/scripts";
import { admit, chargeStep, remainingOf, settle } from "./decide";
import { decideLimit, type LimitDecision } from "./freshness";
import { decideRate, DEFAULT_ADMISSIONS_PER_MINUTE } from "./rate";
import {
  JOB_EVENT_KINDS,
  JOB_STATUSES,
  SETTLE_OUTCOMES,
  type Budget,
  type CachedLimit,
  type Job,
  type JobEventKind,
  type JobStatus,
} from "./repo";
import { LEASE_MS, LEASE_MS_MAX, LEASE_MS_MIN, SWEEP_BATCH } from "./settings";

export const DEFAULT_FEATURE = "tokens";
/** The largest amount one call may name: far above any plan, far below where integers stop being exact. */
export const UNITS_MAX = 1_000_000_000_000;
export const KEY_LENGTH_MAX = 200;
export const ADMISSIONS_PER_MINUTE_MAX = 1_000_000;

const accountId = z.string().regex(/^acct_[0-9a-z]{20}$/, "an account id (acct_ followed by 20 characters)");
export const jobIdSchema = z.string().regex(/^job_[0-9a-z]{20}$/, "a job id (job_ followed by 20 characters)");
const units = (min: number) => z.number().int(`a whole number from ${min} to ${UNITS_MAX}`).min(min, `a whole number from ${min} to ${UNITS_MAX}`).max(UNITS_MAX, `a whole number from ${min} to ${UNITS_MAX}`);
const leaseMsArg = z.number().int().min(LEASE_MS_MIN).max(LEASE_MS_MAX).default(LEASE_MS);
/** Who asks: an account (its API key) sees only its own jobs; null is the operator or the server itself. */
const asAccountId = accountId.nullable();
const stepArg = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional();

export const jobSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  feature: z.string(),
  cycle: z.string(),
  key: z.string(),
  estimateUnits: z.number(),
  heldUnits: z.number(),
  usedUnits: z.number(),
  status: z.enum(JOB_STATUSES),
  steps: z.number(),
  leaseExpiresAtMs: z.number(),
  createdAtMs: z.number(),
  updatedAtMs: z.number(),
  settledAtMs: z.number().nullable(),
  chargedUnits: z.number().nullable(),
  releasedUnits: z.number().nullable(),
  endReason: z.string().nullable(),
});

const eventSchema = z.object({
  jobId: z.string(),
  atMs: z.number(),
  kind: z.enum(JOB_EVENT_KINDS),
  units: z.number(),
  note: z.string().nullable(),
});

const figuresSchema = z.object({ limitUnits: z.number().nullable(), usedUnits: z.number(), heldUnits: z.number() });

export const cachedLimitSchema = z.object({
  accountId: z.string(),
  feature: z.string(),
  kind: z.enum(["limited", "unlimited", "unread"]),
  maxUnits: z.number().nullable(),
  readAtMs: z.number().nullable(),
  lastAttemptAtMs: z.number().nullable(),
  source: z.string(),
  lastError: z.string().nullable(),
});

const needsLimit = z.object({ outcome: z.literal("needs_limit") });
/** Another caller is reading the limit and nothing usable is cached: ask again shortly. */
const limitPending = z.object({ outcome: z.literal("limit_pending"), retryAfterMs: z.number() });
const limitUnavailable = z.object({ outcome: z.literal("limit_unavailable"), retryAfterMs: z.number(), reason: z.string() });

// ------------------------------------------------------------------ helpers

/** Loads a job the asker may see; another account's job is the same 404 as a missing one. */
async function ownedJob(tx: Tx, jobId: string, asker: string | null): Promise<Job> {
  const job = await tx.store.gate.getJob(jobId);
  if (!job || (asker !== null && job.accountId !== asker)) throw new AppError("not_found", `No job ${jobId}.`);
  return job;
}

async function event(tx: Tx, jobId: string, kind: JobEventKind, unitsValue: number, note: string | null): Promise<void> {
  await tx.store.gate.insertJobEvent({ jobId, atMs: tx.nowMs, kind, units: unitsValue, note });
}

async function budgetOf(tx: Tx, job: Pick<Job, "accountId" | "feature" | "cycle">): Promise<Budget> {
  const budget = await tx.store.gate.getBudget(job.accountId, job.feature, job.cycle);
  invariant(budget, `a job's budget exists (${job.accountId} ${job.feature} ${job.cycle})`);
  return budget;
}

function assertBudget(budget: Budget): void {
  for (const [name, value] of [
    ["used", budget.usedUnits],
    ["held", budget.heldUnits],
  ] as const) {
    invariant(Number.isSafeInteger(value) && value >= 0, `a budget's ${name} is a whole number of at least 0, got ${value}`);
  }
}

/** The limit the cache allows right now, or why there is none. */
async function limitNow(tx: Tx, account: string, feature: string): Promise<LimitDecision> {
  return decideLimit(await tx.store.gate.getLimit(account, feature), tx.nowMs);
}

const SETTLE_WORDS: Record<Exclude<JobStatus, "running">, string> = {
  completed: "Completed",
  failed: "Failed",
  cancelled: "Cancelled",
  capped: "Capped",
  expired: "Expired",
};

/**
 * Settles a running job in the caller's transaction: charge min(used, held),
 * release the rest, take the hold off the budget, add the charge to used, and
 * append one usage-ledger row keyed by the job id (so the meter counts it once).
 */
async function applySettlement(tx: Tx, job: Job, usedUnits: number, status: Exclude<JobStatus, "running">, why: string): Promise<Job> {
  invariant(job.status === "running", `only a running job settles (job ${job.id} is ${job.status})`);
  invariant(usedUnits >= job.usedUnits, "a settlement never charges less than the job's steps charged");
  const { chargedUnits, releasedUnits } = settle(job.heldUnits, usedUnits);
  const budget = await budgetOf(tx, job);
  assertBudget(budget);
  invariant(budget.heldUnits >= job.heldUnits, `the budget holds at least this job's hold (${budget.heldUnits} < ${job.heldUnits})`);
  await tx.store.gate.putBudget({ ...budget, heldUnits: budget.heldUnits - job.heldUnits, usedUnits: budget.usedUnits + chargedUnits });
  await recordUsage(tx, {
    key: job.id,
    accountId: job.accountId,
    feature: job.feature,
    cycle: job.cycle,
    units: chargedUnits,
    source: "job",
    ref: job.id,
    reason: status,
  });
  const endReason = `${SETTLE_WORDS[status]}: ${why} Charged ${chargedUnits} of the ${job.heldUnits} held; ${releasedUnits} returned.`;
  const patch = { status, usedUnits: chargedUnits, settledAtMs: tx.nowMs, chargedUnits, releasedUnits, endReason, updatedAtMs: tx.nowMs };
  await tx.store.gate.updateJob(job.id, patch);
  await event(tx, job.id, status === "expired" ? "expired" : "settled", chargedUnits, endReason);
  return { ...job, ...patch };
}

function settledAnswer(job: Job, what: string): string {
  return `Job ${job.id} is already settled (${job.status}); this ${what} changed nothing.`;
}

// ------------------------------------------------------------------ reserve

export const reserveArgs = z.strictObject({
  accountId,
  key: z
    .string()
    .max(KEY_LENGTH_MAX, `a key of 1 to ${KEY_LENGTH_MAX} characters`)
    .refine((k) => k.trim().length > 0 && !/[\u0000-\u001f\u007f]/.test(k), `a key of 1 to ${KEY_LENGTH_MAX} characters, not blank, without control characters`),
  estimate: units(1),
  feature: featureCode.default(DEFAULT_FEATURE),
  leaseMs: leaseMsArg,
});

export const reserveResult = z.discriminatedUnion("outcome", [
  z.object({
    outcome: z.literal("admitted"),
    /** true: the key was seen before; this is that job, and nothing new is held. */
    replayed: z.boolean(),
    job: jobSchema,
    remainingUnits: z.number().nullable(),
    /** The budget right after admission (for callers that check invariants). */
    budget: figuresSchema,
  }),
  z.object({ outcome: z.literal("refused"), neededUnits: z.number(), remainingUnits: z.number(), reason: z.string() }),
  z.object({ outcome: z.literal("rate_limited"), retryAfterMs: z.number(), reason: z.string() }),
  needsLimit,
  limitPending,
  limitUnavailable,
]);

/**
 * Check and hold in one step. A replayed key returns its job and holds
 * nothing new (the same key with another estimate or feature is a conflict).
 * Otherwise: the account's rate window, then the cached limit, then admit.
 * A refusal writes nothing, so the same key may be admitted later.
 */
export const reserve = mutation("gate.reserve", reserveArgs, reserveResult, async (tx, args) => {
  const existing = await tx.store.gate.getJobByKey(args.accountId, args.key);
  if (existing) {
    if (existing.estimateUnits !== args.estimate || existing.feature !== args.feature) {
      throw new AppError(
        "conflict",
        `The key ${JSON.stringify(args.key)} already belongs to job ${existing.id} (${existing.estimateUnits} ${existing.feature}); a new job needs a new key.`,
      );
    }
    const budget = await budgetOf(tx, existing);
    return { outcome: "admitted" as const, replayed: true, job: existing, remainingUnits: remainingOf(budget), budget: figures(budget) };
  }

  const account = await tx.store.accounts.get(args.accountId);
  if (!account) throw new AppError("not_found", `No account ${args.accountId}.`);

  const billing = await tx.store.gate.getBilling(args.accountId);
  const admissionsPerMinute = billing?.admissionsPerMinute ?? DEFAULT_ADMISSIONS_PER_MINUTE;
  const rate = decideRate(billing, admissionsPerMinute, tx.nowMs);
  if (!rate.allowed) return { outcome: "rate_limited" as const, retryAfterMs: rate.retryAfterMs, reason: rate.reason };

  const limit = await limitNow(tx, args.accountId, args.feature);
  if (limit.use === "refresh") return { outcome: "needs_limit" as const };
  if (limit.use === "pending") return { outcome: "limit_pending" as const, retryAfterMs: limit.retryAfterMs };
  if (limit.use === "unavailable") return { outcome: "limit_unavailable" as const, retryAfterMs: limit.retryAfterMs, reason: limit.reason };

  const cycle = cycleOf(tx.nowMs, account.cycleAnchorMs).name;
  const budget = (await tx.store.gate.getBudget(args.accountId, args.feature, cycle)) ?? {
    accountId: args.accountId,
    feature: args.feature,
    cycle,
    limitUnits: limit.limitUnits,
    usedUnits: 0,
    heldUnits: 0,
  };
  assertBudget(budget);
  const admission = admit({ limitUnits: limit.limitUnits, usedUnits: budget.usedUnits, heldUnits: budget.heldUnits }, args.estimate);
  if (!admission.admitted) {
    return { outcome: "refused" as const, neededUnits: args.estimate, remainingUnits: admission.remainingUnits, reason: admission.reason };
  }

  const job: Job = {
    id: tx.newId("job"),
    accountId: args.accountId,
    feature: args.feature,
    cycle,
    key: args.key,
    estimateUnits: args.estimate,
    heldUnits: args.estimate,
    usedUnits: 0,
    status: "running",
    steps: 0,
    leaseExpiresAtMs: tx.nowMs + args.leaseMs,
    createdAtMs: tx.nowMs,
    updatedAtMs: tx.nowMs,
    settledAtMs: null,
    chargedUnits: null,
    releasedUnits: null,
    endReason: null,
  };
  const after: Budget = { ...budget, limitUnits: limit.limitUnits, heldUnits: budget.heldUnits + args.estimate };
  invariant(after.limitUnits === null || after.usedUnits + after.heldUnits <= after.limitUnits, "an admission never holds past the limit in force");
  await tx.store.gate.putBudget(after);
  await tx.store.gate.insertJob(job);
  await tx.store.gate.putBilling({ accountId: args.accountId, admissionsPerMinute, ...rate.next });
  const limitWords = limit.limitUnits === null ? "no maximum" : `a limit of ${limit.limitUnits}`;
  await event(tx, job.id, "reserved", args.estimate, `Held ${args.estimate} against ${limitWords} (${limit.use} limit, read ${Math.round(limit.ageMs / 1000)} s ago).`);
  return { outcome: "admitted" as const, replayed: false, job, remainingUnits: admission.remainingUnits, budget: figures(after) };
});

function figures(budget: Budget) {
  return { limitUnits: budget.limitUnits, usedUnits: budget.usedUnits, heldUnits: budget.heldUnits };
}

/** A step number that was already applied replays; one that skips ahead is a client bug. */
function checkStep(job: Job, step: number | undefined): "apply" | "replayed" {
  if (step === undefined) return "apply";
  if (step <= job.steps) return "replayed";
  if (step > job.steps + 1) {
    throw new AppError("conflict", `Job ${job.id} has applied ${job.steps} steps; the next step is ${job.steps + 1}, not ${step}.`);
  }
  return "apply";
}

// ------------------------------------------------------------------ charge

export const chargeArgs = z.strictObject({
  jobId: jobIdSchema,
  tokens: units(0),
  /** Optional step number (1, 2, …, shared with extend); a retried step that was applied changes nothing. */
  step: stepArg,
  asAccountId,
  leaseMs: leaseMsArg,
});

export const chargeResult = z.discriminatedUnion("outcome", [
  z.object({ outcome: z.literal("charged"), job: jobSchema, chargedUnits: z.number() }),
  z.object({ outcome: z.literal("capped"), job: jobSchema, chargedUnits: z.number(), reason: z.string() }),
  z.object({ outcome: z.literal("replayed"), job: jobSchema }),
  z.object({ outcome: z.literal("ignored"), job: jobSchema, reason: z.string() }),
]);

/**
 * One step of work against the hold. Renews the lease. A step that would pass
 * the hold charges what is left and caps the job: it is settled at its hold at
 * once and the worker must stop. A charge to a settled job changes nothing.
 * Charges do not touch the budget row (the hold already counts there).
 */
export const charge = mutation("gate.charge", chargeArgs, chargeResult, async (tx, args) => {
  const job = await ownedJob(tx, args.jobId, args.asAccountId);
  if (job.status !== "running") return { outcome: "ignored" as const, job, reason: settledAnswer(job, "charge") };
  if (checkStep(job, args.step) === "replayed") return { outcome: "replayed" as const, job };

  const step = chargeStep(job.heldUnits, job.usedUnits, args.tokens);
  const usedUnits = job.usedUnits + step.chargedUnits;
  if (step.capped) {
    await tx.store.gate.updateJob(job.id, { usedUnits, steps: job.steps + 1 });
    await event(tx, job.id, "capped", step.chargedUnits, `A step of ${args.tokens} would pass the hold; ${step.chargedUnits} charged and the job stopped.`);
    const settled = await applySettlement(
      tx,
      { ...job, usedUnits, steps: job.steps + 1 },
      usedUnits,
      "capped",
      `a step of ${args.tokens} would have passed the hold of ${job.heldUnits}, so only ${step.chargedUnits} was charged and the job must stop.`,
    );
    return { outcome: "capped" as const, job: settled, chargedUnits: step.chargedUnits, reason: settled.endReason! };
  }
  const patch = { usedUnits, steps: job.steps + 1, leaseExpiresAtMs: tx.nowMs + args.leaseMs, updatedAtMs: tx.nowMs };
  await tx.store.gate.updateJob(job.id, patch);
  await event(tx, job.id, "charged", step.chargedUnits, null);
  return { outcome: "charged" as const, job: { ...job, ...patch }, chargedUnits: step.chargedUnits };
});

// ------------------------------------------------------------------ extend

export const extendArgs = z.strictObject({ jobId: jobIdSchema, tokens: units(1), step: stepArg, asAccountId, leaseMs: leaseMsArg });

export const extendResult = z.discriminatedUnion("outcome", [
  z.object({ outcome: z.literal("extended"), job: jobSchema, grantedUnits: z.number(), remainingUnits: z.number().nullable(), budget: figuresSchema }),
  z.object({ outcome: z.literal("refused"), job: jobSchema, remainingUnits: z.number(), reason: z.string() }),
  z.object({ outcome: z.literal("replayed"), job: jobSchema }),
  z.object({ outcome: z.literal("ignored"), job: jobSchema, reason: z.string() }),
  needsLimit,
  limitPending,
  limitUnavailable,
]);

/**
 * A running job asks for a bigger hold (incremental authorization). Granted
 * only if the budget has room under the current limit, atomically; refused
 * otherwise, and the job keeps the cap it had. Either way the lease renews.
 */
export const extend = mutation("gate.extend", extendArgs, extendResult, async (tx, args) => {
  const job = await ownedJob(tx, args.jobId, args.asAccountId);
  if (job.status !== "running") return { outcome: "ignored" as const, job, reason: settledAnswer(job, "extension") };
  if (checkStep(job, args.step) === "replayed") return { outcome: "replayed" as const, job };

  const limit = await limitNow(tx, job.accountId, job.feature);
  if (limit.use === "refresh") return { outcome: "needs_limit" as const };
  if (limit.use === "pending") return { outcome: "limit_pending" as const, retryAfterMs: limit.retryAfterMs };
  if (limit.use === "unavailable") return { outcome: "limit_unavailable" as const, retryAfterMs: limit.retryAfterMs, reason: limit.reason };

  const budget = await budgetOf(tx, job);
  assertBudget(budget);
  const admission = admit({ limitUnits: limit.limitUnits, usedUnits: budget.usedUnits, heldUnits: budget.heldUnits }, args.tokens);
  const renewed = { steps: job.steps + 1, leaseExpiresAtMs: tx.nowMs + args.leaseMs, updatedAtMs: tx.nowMs };
  if (!admission.admitted) {
    await tx.store.gate.updateJob(job.id, renewed);
    await event(tx, job.id, "extend_refused", args.tokens, admission.reason);
    return { outcome: "refused" as const, job: { ...job, ...renewed }, remainingUnits: admission.remainingUnits, reason: admission.reason };
  }
  const after: Budget = { ...budget, limitUnits: limit.limitUnits, heldUnits: budget.heldUnits + args.tokens };
  invariant(after.limitUnits === null || after.usedUnits + after.heldUnits <= after.limitUnits, "an extension never holds past the limit in force");
  await tx.store.gate.putBudget(after);
  const patch = { ...renewed, heldUnits: job.heldUnits + args.tokens };
  await tx.store.gate.updateJob(job.id, patch);
  await event(tx, job.id, "extended", args.tokens, null);
  return { outcome: "extended" as const, job: { ...job, ...patch }, grantedUnits: args.tokens, remainingUnits: admission.remainingUnits, budget: figures(after) };
});

// ------------------------------------------------------------------ settle

export const settleArgs = z.strictObject({
  jobId: jobIdSchema,
  /** The job's total usage; defaults to what its steps charged. Never less than that. */
  used: units(0).optional(),
  outcome: z.enum(SETTLE_OUTCOMES),
  asAccountId,
});

export const settleResult = z.discriminatedUnion("outcome", [
  z.object({ outcome: z.literal("settled"), job: jobSchema, chargedUnits: z.number(), releasedUnits: z.number() }),
  z.object({ outcome: z.literal("already_settled"), job: jobSchema, reason: z.string() }),
]);

/**
 * Ends a job: charges min(used, held), returns the rest, appends the charge to
 * the usage ledger. The second settle of a job (a retry, a late worker after
 * the sweeper) is a no-op and says so.
 */
export const settleJob = mutation("gate.settle", settleArgs, settleResult, async (tx, args) => {
  const job = await ownedJob(tx, args.jobId, args.asAccountId);
  if (job.status !== "running") return { outcome: "already_settled" as const, job, reason: settledAnswer(job, "settlement") };
  const usedUnits = Math.max(args.used ?? job.usedUnits, job.usedUnits);
  const why =
    args.outcome === "completed"
      ? `the worker finished and reported ${usedUnits} used.`
      : args.outcome === "failed"
        ? `the worker failed after using ${usedUnits}.`
        : `the worker cancelled the job after using ${usedUnits}.`;
  const settled = await applySettlement(tx, job, usedUnits, args.outcome, why);
  return { outcome: "settled" as const, job: settled, chargedUnits: settled.chargedUnits!, releasedUnits: settled.releasedUnits! };
});

// ------------------------------------------------------------------ sweep

export const sweep = mutation(
  "gate.sweep",
  z.strictObject({ limit: z.number().int().min(1).max(500).default(SWEEP_BATCH) }),
  z.object({
    expired: z.array(z.object({ jobId: z.string(), accountId: z.string(), chargedUnits: z.number(), releasedUnits: z.number() })),
    /** true when the batch was full: more may be waiting. */
    more: z.boolean(),
  }),
  /**
   * Settles running jobs whose lease ran out as expired, at the usage they had
   * recorded. Reads through the (status, leaseExpiresAtMs) index, so its cost
   * grows with the number of expired jobs, not with all jobs.
   */
  async (tx, args) => {
    const due = await tx.store.gate.listExpiredJobs(tx.nowMs, args.limit);
    const expired = [];
    for (const job of due) {
      invariant(job.status === "running" && job.leaseExpiresAtMs <= tx.nowMs, "the sweeper takes only running jobs whose lease ran out");
      const silentSeconds = Math.round((tx.nowMs - job.updatedAtMs) / 1000);
      const settled = await applySettlement(tx, job, job.usedUnits, "expired", `no sign of life from the worker for ${silentSeconds} s, past its lease.`);
      expired.push({ jobId: job.id, accountId: job.accountId, chargedUnits: settled.chargedUnits!, releasedUnits: settled.releasedUnits! });
    }
    return { expired, more: due.length === args.limit };
  },
);

// ------------------------------------------------------------------ the limit cache

const providerLimit = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("limited"), max: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) }),
  z.object({ kind: z.literal("unlimited") }),
]);

/**
 * Takes the right to ask the provider for a limit: granted when nobody has
 * asked for this account and feature in the last minute (the attempt time is
 * written now, so concurrent callers and other servers wait their turn).
 * Answers who the account is at the provider.
 */
export const claimLimitRead = mutation(
  "gate.claimLimitRead",
  z.strictObject({ accountId, feature: featureCode, source: z.string().min(1).max(40) }),
  z.object({
    claimed: z.boolean(),
    claimedAtMs: z.number(),
    account: z.object({ id: z.string(), kindeCustomerId: z.string().nullable(), agreementId: z.string().nullable() }),
  }),
  async (tx, args) => {
    const account = await tx.store.accounts.get(args.accountId);
    if (!account) throw new AppError("not_found", `No account ${args.accountId}.`);
    const cached = await tx.store.gate.getLimit(args.accountId, args.feature);
    const identity = { id: account.id, kindeCustomerId: account.kindeCustomerId, agreementId: account.agreementId };
    if (decideLimit(cached, tx.nowMs).use !== "refresh") return { claimed: false, claimedAtMs: tx.nowMs, account: identity };
    const base: CachedLimit = cached ?? {
      accountId: args.accountId,
      feature: args.feature,
      kind: "unread",
      maxUnits: null,
      readAtMs: null,
      source: args.source,
      lastAttemptAtMs: null,
      lastError: null,
    };
    // A new attempt: its outcome is unknown until storeLimit or recordLimitFailure (other callers wait meanwhile).
    await tx.store.gate.putLimit({ ...base, lastAttemptAtMs: tx.nowMs, lastError: null });
    return { claimed: true, claimedAtMs: tx.nowMs, account: identity };
  },
);

/**
 * Stores what the provider answered for the claim made at `claimedAtMs`. If
 * the row was dropped or claimed again meanwhile (a plan event), the answer may
 * predate the change and is thrown away: the next admission reads again.
 */
export const storeLimit = mutation(
  "gate.storeLimit",
  z.strictObject({
    accountId,
    feature: featureCode,
    claimedAtMs: z.number().int(),
    source: z.string().min(1).max(40),
    limit: providerLimit,
    note: z.string().max(500).nullable().default(null),
  }),
  z.object({ stored: z.boolean() }),
  async (tx, args) => {
    const cached = await tx.store.gate.getLimit(args.accountId, args.feature);
    if (!cached || cached.lastAttemptAtMs !== args.claimedAtMs) return { stored: false };
    await tx.store.gate.putLimit({
      ...cached,
      kind: args.limit.kind,
      maxUnits: args.limit.kind === "limited" ? args.limit.max : null,
      readAtMs: tx.nowMs,
      source: args.source,
      lastError: args.note,
    });
    return { stored: true };
  },
);

/** Records why the claimed read failed; the cached value (if any) stays, to be used stale for up to 10 minutes. */
export const recordLimitFailure = mutation(
  "gate.recordLimitFailure",
  z.strictObject({ accountId, feature: featureCode, claimedAtMs: z.number().int(), error: z.string().min(1).max(500) }),
  z.object({ recorded: z.boolean() }),
  async (tx, args) => {
    const cached = await tx.store.gate.getLimit(args.accountId, args.feature);
    if (!cached || cached.lastAttemptAtMs !== args.claimedAtMs) return { recorded: false };
    await tx.store.gate.putLimit({ ...cached, lastError: args.error });
    return { recorded: true };
  },
);

/**
 * Drops an account's cached limits (one feature, or all of them) inside the
 * caller's transaction, so the next admission reads the provider at once. The
 * inbox calls this from its plan-event handler; running holds keep their size.
 */
export async function dropCachedLimits(tx: Tx, account: string, feature?: string): Promise<number> {
  const rows = feature === undefined ? await tx.store.gate.listLimits(account, 50) : [await tx.store.gate.getLimit(account, feature)].filter((r) => r !== null);
  for (const row of rows) await tx.store.gate.deleteLimit(row.accountId, row.feature);
  return rows.length;
}

/** gate.dropLimit: the same as dropCachedLimits, as its own transaction. */
export const dropLimit = mutation(
  "gate.dropLimit",
  z.strictObject({ accountId, feature: featureCode.optional() }),
  z.object({ dropped: z.number() }),
  async (tx, args) => ({ dropped: await dropCachedLimits(tx, args.accountId, args.feature) }),
);

// ------------------------------------------------------------------ account settings and reads

export const configureAccount = mutation(
  "gate.configureAccount",
  z.strictObject({ accountId, admissionsPerMinute: z.number().int().min(1).max(ADMISSIONS_PER_MINUTE_MAX) }),
  z.object({ accountId: z.string(), admissionsPerMinute: z.number() }),
  async (tx, args) => {
    if (!(await tx.store.accounts.get(args.accountId))) throw new AppError("not_found", `No account ${args.accountId}.`);
    const current = await tx.store.gate.getBilling(args.accountId);
    await tx.store.gate.putBilling({ windowStartMs: 0, windowAdmissions: 0, ...current, accountId: args.accountId, admissionsPerMinute: args.admissionsPerMinute });
    return { accountId: args.accountId, admissionsPerMinute: args.admissionsPerMinute };
  },
);

export const JOB_EVENTS_SHOWN = 100;

/** How many of a job's events a list of its latest ones leaves out: one "reserved", one per step, one at settlement. */
function omittedEvents(job: Job, shown: number): number {
  return Math.max(0, 1 + job.steps + (job.status === "running" ? 0 : 1) - shown);
}

export const getJob = query(
  "gate.getJob",
  z.strictObject({ jobId: jobIdSchema, asAccountId }),
  z.object({ job: jobSchema, events: z.array(eventSchema), omittedEvents: z.number() }),
  async (tx, args) => {
    const job = await ownedJob(tx, args.jobId, args.asAccountId);
    const events = await tx.store.gate.listJobEvents(job.id, JOB_EVENTS_SHOWN);
    return { job, events, omittedEvents: omittedEvents(job, events.length) };
  },
);

const budgetView = z.object({
  accountId: z.string(),
  feature: z.string(),
  cycle: z.string(),
  limitUnits: z.number().nullable(),
  usedUnits: z.number(),
  heldUnits: z.number(),
  remainingUnits: z.number().nullable(),
});

/**
 * The budget of the current cycle for one feature, and the cached limit it is
 * measured against (where it came from and when). `limitUnits` is the cached
 * limit when there is one, else the snapshot the last admission used.
 */
export const budget = query(
  "gate.budget",
  z.strictObject({ accountId, feature: featureCode.default(DEFAULT_FEATURE) }),
  z.object({ budget: budgetView, cachedLimit: cachedLimitSchema.nullable(), admissionsPerMinute: z.number() }),
  async (tx, args) => {
    const account = await tx.store.accounts.get(args.accountId);
    if (!account) throw new AppError("not_found", `No account ${args.accountId}.`);
    const cycle = cycleOf(tx.nowMs, account.cycleAnchorMs).name;
    const row = await tx.store.gate.getBudget(args.accountId, args.feature, cycle);
    const cachedLimit = await tx.store.gate.getLimit(args.accountId, args.feature);
    const billing = await tx.store.gate.getBilling(args.accountId);
    const limitUnits =
      cachedLimit && cachedLimit.kind !== "unread" ? (cachedLimit.kind === "unlimited" ? null : cachedLimit.maxUnits) : (row?.limitUnits ?? null);
    const figuresNow = { limitUnits, usedUnits: row?.usedUnits ?? 0, heldUnits: row?.heldUnits ?? 0 };
    return {
      budget: { accountId: args.accountId, feature: args.feature, cycle, ...figuresNow, remainingUnits: remainingOf(figuresNow) },
      cachedLimit,
      admissionsPerMinute: billing?.admissionsPerMinute ?? DEFAULT_ADMISSIONS_PER_MINUTE,
    };
  },
);

export const ACCOUNT_JOBS_MAX = 50;

/** A job with its latest events; `omittedEvents` earlier ones are not shown. */
const jobWithEvents = z.object({ job: jobSchema, events: z.array(eventSchema), omittedEvents: z.number() });

/** What the account page shows: budgets, cached limits, running and recent jobs with their timelines. */
export const accountView = query(
  "gate.accountView",
  z.strictObject({ accountId, jobs: z.number().int().min(1).max(ACCOUNT_JOBS_MAX).default(20), eventsPerJob: z.number().int().min(1).max(50).default(12) }),
  z.object({
    /** When the view was read (ages on the page are measured from it). */
    nowMs: z.number(),
    budgets: z.array(budgetView),
    cachedLimits: z.array(cachedLimitSchema),
    admissionsPerMinute: z.number(),
    running: z.array(jobWithEvents),
    settled: z.array(jobWithEvents),
  }),
  async (tx, args) => {
    const budgets = (await tx.store.gate.listBudgets(args.accountId, 12)).map((b) => ({ ...b, remainingUnits: remainingOf(b) }));
    const cachedLimits = await tx.store.gate.listLimits(args.accountId, 20);
    const billing = await tx.store.gate.getBilling(args.accountId);
    const withEvents = async (jobs: Job[]) =>
      Promise.all(
        jobs.map(async (job) => {
          const events = await tx.store.gate.listJobEvents(job.id, args.eventsPerJob);
          return { job, events, omittedEvents: omittedEvents(job, events.length) };
        }),
      );
    const running = await tx.store.gate.listJobs(args.accountId, { runningOnly: true, limit: args.jobs });
    const recent = await tx.store.gate.listJobs(args.accountId, { runningOnly: false, limit: args.jobs * 2 });
    const settled = recent.filter((j) => j.status !== "running").slice(0, args.jobs);
    return {
      nowMs: tx.nowMs,
      budgets,
      cachedLimits,
      admissionsPerMinute: billing?.admissionsPerMinute ?? DEFAULT_ADMISSIONS_PER_MINUTE,
      running: await withEvents(running),
      settled: await withEvents(settled),
    };
  },
);
