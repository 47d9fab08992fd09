/**
 * The gate's HTTP API (/api/v1/jobs…, /api/v1/accounts/:id/budget). Plain
 * `(Request, context) => Promise<Response>` handlers: app/api/v1/**\/route.ts
 * re-exports them for Next.js, and the production server (server/main.ts)
 * calls the very same functions directly (ARCHITECTURE.md, "The data path").
 *
 * Thin: authenticate, parse with zod, call one orchestration, answer. An
 * account's key acts for its own account only; another account's job is the
 * same 404 as a missing one. The operator names the account in the body.
 */
import { z } from "zod";
import { AppError } from "../errors";
import { chargeJob, extendJob, reserveJob, settleJob, type GateContext } from "../gate/orchestrate";
import * as gate from "../gate/scripts";
import type { Job } from "../gate/repo";
import { decideLimit } from "../gate/freshness";
import { actingAccount, assertOwns, authenticate, notFound, type Principal } from "../http/auth";
import { json, readJson, requireSameOrigin, route } from "../http/api";
import { orchestrationContext, getRuntime, type Runtime } from "../runtime";
import { featureCode } from "../usage/scripts";
import { parseInput } from "../validation";

type IdParams = { params: Promise<{ id: string }> };

const contexts = new WeakMap<Runtime, GateContext>();
/** The gate's orchestration context over this process's runtime (engine and provider). */
export function gateContext(): GateContext {
  const runtime = getRuntime();
  let ctx = contexts.get(runtime);
  if (!ctx) {
    ctx = orchestrationContext(runtime.engine, runtime.provider);
    contexts.set(runtime, ctx);
  }
  return ctx;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A job as the API shows it. Amounts in the job's feature units. */
export function jobBody(job: Job) {
  return {
    id: job.id,
    accountId: job.accountId,
    key: job.key,
    feature: job.feature,
    cycle: job.cycle,
    status: job.status,
    estimate: job.estimateUnits,
    held: job.heldUnits,
    used: job.usedUnits,
    steps: job.steps,
    leaseExpiresAt: iso(job.leaseExpiresAtMs),
    createdAt: iso(job.createdAtMs),
    settledAt: iso(job.settledAtMs),
    charged: job.chargedUnits,
    released: job.releasedUnits,
    reason: job.endReason,
  };
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

function asker(principal: Principal): string | null {
  return principal.kind === "account" ? principal.accountId : null;
}

async function jobId(context: IdParams): Promise<string> {
  const { id } = await context.params;
  if (!gate.jobIdSchema.safeParse(id).success) throw notFound("job", id);
  return id;
}

// ------------------------------------------------------------------ POST /api/v1/jobs

/**
 * The account a reserve is for. An account's key or member acts for its own
 * account; naming any other id is the same 404 whatever that id is, and does
 * not echo it (it came in the body, not the path). The operator must name one.
 */
function ownAccount(principal: Principal, named: string | undefined): string {
  if (principal.kind === "account" && named !== undefined && named !== principal.accountId) {
    throw new AppError("not_found", "No such account for these credentials.");
  }
  return actingAccount(principal, named ?? null);
}

const reserveBody = z.strictObject({
  key: gate.reserveArgs.shape.key,
  estimate: gate.reserveArgs.shape.estimate,
  feature: featureCode.optional(),
  /** Only the operator names it; an account key acts for its own account. */
  accountId: z.string().optional(),
});

/** Reserve: check and hold in one step. 201 a new job, 200 a replayed key, 402/429/503 a refusal. */
export const reserve = route(async (request: Request) => {
  requireSameOrigin(request);
  const principal = await authenticate(request);
  const body = parseInput(reserveBody, await readJson(request), "body");
  const accountId = ownAccount(principal, body.accountId);
  const result = await reserveJob(gateContext(), { accountId, key: body.key, estimate: body.estimate, feature: body.feature });
  switch (result.outcome) {
    case "admitted":
      return json({ ...jobBody(result.job), remaining: result.remainingUnits, replayed: result.replayed }, result.replayed ? 200 : 201);
    case "refused":
      throw new AppError("limit_exceeded", result.reason, { details: { needed: result.neededUnits, remaining: result.remainingUnits, reason: result.reason } });
    case "rate_limited":
      throw new AppError("rate_limited", result.reason, { retryAfterSeconds: seconds(result.retryAfterMs) });
    case "limit_unavailable":
      throw new AppError("limit_unavailable", result.reason, { retryAfterSeconds: seconds(result.retryAfterMs) });
  }
});

// ------------------------------------------------------------------ steps

/** What every step handler starts with: same-site check, who asks, the job id, the parsed body. */
async function stepRequest<S extends z.ZodType>(request: Request, context: IdParams, body: S) {
  requireSameOrigin(request);
  const principal = await authenticate(request);
  const id = await jobId(context);
  return { id, asAccountId: asker(principal), body: parseInput(body, await readJson(request), "body") };
}

const chargeBody = z.strictObject({ tokens: gate.chargeArgs.shape.tokens, step: gate.chargeArgs.shape.step });
const extendBody = z.strictObject({ tokens: gate.extendArgs.shape.tokens, step: gate.extendArgs.shape.step });
const settleBody = z.strictObject({ used: gate.settleArgs.shape.used, outcome: gate.settleArgs.shape.outcome });

/** Charge one step against the hold; renews the lease. `outcome`: charged, capped (stop), replayed, ignored (already settled). */
export const charge = route(async (request: Request, context: IdParams) => {
  const { id, asAccountId, body } = await stepRequest(request, context, chargeBody);
  const result = await chargeJob(gateContext(), { jobId: id, tokens: body.tokens, step: body.step, asAccountId });
  return json({
    outcome: result.outcome,
    charged: "chargedUnits" in result ? result.chargedUnits : 0,
    capped: result.job.status === "capped",
    reason: "reason" in result ? result.reason : null,
    job: jobBody(result.job),
  });
});

/** Ask for a bigger hold. 200 granted (or replayed/ignored), 402 refused (the job keeps its hold), 503 limit unknown. */
export const extend = route(async (request: Request, context: IdParams) => {
  const { id, asAccountId, body } = await stepRequest(request, context, extendBody);
  const result = await extendJob(gateContext(), { jobId: id, tokens: body.tokens, step: body.step, asAccountId });
  switch (result.outcome) {
    case "extended":
      return json({ outcome: result.outcome, granted: result.grantedUnits, remaining: result.remainingUnits, job: jobBody(result.job) });
    case "replayed":
      return json({ outcome: result.outcome, granted: null, remaining: null, job: jobBody(result.job) });
    case "ignored":
      return json({ outcome: result.outcome, granted: 0, remaining: null, reason: result.reason, job: jobBody(result.job) });
    case "refused":
      throw new AppError("limit_exceeded", result.reason, { details: { needed: body.tokens, remaining: result.remainingUnits, reason: result.reason, held: result.job.heldUnits } });
    case "limit_unavailable":
      throw new AppError("limit_unavailable", result.reason, { retryAfterSeconds: seconds(result.retryAfterMs) });
  }
});

/** End the job: charge min(used, held), release the rest. A second settle changes nothing (`outcome: already_settled`). */
export const settle = route(async (request: Request, context: IdParams) => {
  const { id, asAccountId, body } = await stepRequest(request, context, settleBody);
  const result = await settleJob(gateContext(), { jobId: id, used: body.used, outcome: body.outcome, asAccountId });
  return json({
    outcome: result.outcome,
    charged: result.job.chargedUnits,
    released: result.job.releasedUnits,
    reason: result.outcome === "already_settled" ? result.reason : result.job.endReason,
    job: jobBody(result.job),
  });
});

/** GET /api/v1/jobs/:id: the job and its timeline. */
export const getJob = route(async (request: Request, context: IdParams) => {
  const principal = await authenticate(request);
  const id = await jobId(context);
  const { job, events, omittedEvents } = await getRuntime().engine.run(gate.getJob, { jobId: id, asAccountId: asker(principal) });
  return json({
    job: jobBody(job),
    /** The latest events, oldest first; `earlierEvents` more happened before them. */
    events: events.map((e) => ({ at: iso(e.atMs), kind: e.kind, units: e.units, note: e.note })),
    earlierEvents: omittedEvents,
  });
});

// ------------------------------------------------------------------ GET /api/v1/accounts/:id/budget

/** The current cycle's budget for a feature, and where its limit came from and how old it is. */
export const budget = route(async (request: Request, context: IdParams) => {
  const principal = await authenticate(request);
  const { id } = await context.params;
  assertOwns(principal, id, "account", id);
  if (!/^acct_[0-9a-z]{20}$/.test(id)) throw notFound("account", id);
  const feature = parseInput(featureCode.default(gate.DEFAULT_FEATURE), new URL(request.url).searchParams.get("feature") ?? undefined, "feature");
  const runtime = getRuntime();
  const result = await runtime.engine.run(gate.budget, { accountId: id, feature });
  const b = result.budget;
  const cached = result.cachedLimit;
  const nowMs = Date.now();
  return json({
    budget: { accountId: b.accountId, feature: b.feature, cycle: b.cycle, limit: b.limitUnits, used: b.usedUnits, held: b.heldUnits, remaining: b.remainingUnits },
    limit: cached
      ? {
          kind: cached.kind,
          max: cached.maxUnits,
          source: cached.source,
          readAt: iso(cached.readAtMs),
          ageSeconds: cached.readAtMs === null ? null : Math.floor((nowMs - cached.readAtMs) / 1000),
          lastAttemptAt: iso(cached.lastAttemptAtMs),
          lastError: cached.lastError,
          state: decideLimit(cached, nowMs).use,
        }
      : null,
    admissionsPerMinute: result.admissionsPerMinute,
  });
});
