/**
 * A client for workers that spend against Tollbooth's gate (Part A). It has
 * no server dependencies (only `fetch`), so another app can copy this folder
 * or import it as it is.
 *
 *   const gate = new GateClient({ url: "http://localhost:3000", apiKey: process.env.TOLLBOOTH_KEY! });
 *   const summary = await gate.withHold({ key: `summarize:${doc.id}`, estimate: 40_000 }, async (job) => {
 *     for (const chunk of chunks) {
 *       const tokens = await summarize(chunk); // the expensive step
 *       await job.charge(tokens);              // throws JobCappedError when the hold runs out: stop
 *     }
 *     return "done";
 *   });                                        // settled "completed" on return, "failed" with usage so far on a throw
 *
 * Every call is safe to repeat, so network errors (and 502/504 from a proxy)
 * are retried with the same body: reserve by its key, charge and extend by
 * their step number, settle because a job settles once.
 */

export interface GateClientOptions {
  /** The Tollbooth server, e.g. http://localhost:3000. */
  url: string;
  /** The account's API key (tb_live_…). */
  apiKey: string;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Tries per call on a network error (default 5). */
  tries?: number;
  /** Gives up on one try after this long and retries it (default 30 s). */
  timeoutMs?: number;
  /** Wait before try n+1 (default: 100 ms doubling to 2 s, with jitter). */
  retryWaitMs?: (attempt: number) => number;
}

export type JobStatus = "running" | "completed" | "failed" | "cancelled" | "capped" | "expired";

export interface Job {
  id: string;
  accountId: string;
  key: string;
  feature: string;
  cycle: string;
  status: JobStatus;
  estimate: number;
  held: number;
  used: number;
  steps: number;
  leaseExpiresAt: string;
  createdAt: string;
  settledAt: string | null;
  charged: number | null;
  released: number | null;
  reason: string | null;
}

export interface Reservation extends Job {
  /** Limit left after this hold; null when the plan has no maximum. */
  remaining: number | null;
  /** true when the key had been seen: the same job, nothing new held. */
  replayed: boolean;
}

export interface ChargeResult {
  outcome: "charged" | "capped" | "replayed" | "ignored";
  charged: number;
  capped: boolean;
  reason: string | null;
  job: Job;
}

export interface ExtendResult {
  outcome: "extended" | "refused" | "replayed" | "ignored";
  /** true only for "extended"; a "replayed" step says nothing (compare the job's hold). */
  granted: boolean;
  /** Limit left (null: no maximum or not known for a replayed step). */
  remaining: number | null;
  reason: string | null;
  job: Job | null;
}

export interface SettleResult {
  outcome: "settled" | "already_settled";
  charged: number | null;
  released: number | null;
  reason: string | null;
  job: Job;
}

/** Any answer from the gate that is not a success. */
export class GateError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
    this.name = "GateError";
  }
}

/** 402: the limit has no room for this amount. */
export class GateRefusedError extends GateError {
  readonly remaining: number;
  readonly needed: number | null;
  readonly reason: string;
  constructor(status: number, code: string, message: string, body: { remaining?: number; needed?: number; reason?: string }) {
    super(status, code, message, body);
    this.name = "GateRefusedError";
    this.remaining = body.remaining ?? 0;
    this.needed = body.needed ?? null;
    this.reason = body.reason ?? message;
  }
}

/** A refusal that passes with time: try again after `retryAfterSeconds` (from Retry-After). */
export class GateRetryLaterError extends GateError {
  constructor(
    status: number,
    code: string,
    message: string,
    body: unknown,
    readonly retryAfterSeconds: number,
  ) {
    super(status, code, message, body);
    this.name = "GateRetryLaterError";
  }
}

/** 429: too many new jobs this minute. */
export class GateRateLimitedError extends GateRetryLaterError {
  override readonly name = "GateRateLimitedError";
}

/** 503 limit_unavailable: the plan limit cannot be read, so new work is refused. */
export class GateLimitUnavailableError extends GateRetryLaterError {
  override readonly name = "GateLimitUnavailableError";
}

/** The job reached its hold: the step was charged only up to it and the job is settled as capped. The worker must stop. */
export class JobCappedError extends Error {
  constructor(readonly job: Job) {
    super(job.reason ?? `Job ${job.id} reached its hold of ${job.held} and was capped.`);
    this.name = "JobCappedError";
  }
}

/** What withHold gives the work function. */
export interface HeldJob {
  readonly id: string;
  /** The hold (grows with extend). */
  readonly held: number;
  /** Charged so far. */
  readonly used: number;
  /** Charges one step; throws JobCappedError when the step passed the hold. A step of 0 only renews the lease. */
  charge(tokens: number): Promise<void>;
  /** Asks for a bigger hold; false when the budget has no room (the hold stays as it was). */
  extend(tokens: number): Promise<boolean>;
}

const RETRYABLE_STATUSES = new Set([502, 504]);

function defaultWait(attempt: number): number {
  const ceiling = Math.min(2_000, 100 * 2 ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

export class GateClient {
  private readonly base: string;
  private readonly fetchFn: typeof fetch;
  private readonly tries: number;
  private readonly timeoutMs: number;
  private readonly retryWaitMs: (attempt: number) => number;

  constructor(private readonly options: GateClientOptions) {
    this.base = options.url.replace(/\/+$/, "");
    this.fetchFn = options.fetch ?? fetch;
    this.tries = Math.max(1, options.tries ?? 5);
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.retryWaitMs = options.retryWaitMs ?? defaultWait;
  }

  /** Check and hold `estimate` for a new job. Same key, same job: safe to repeat. */
  async reserve(input: { key: string; estimate: number; feature?: string }): Promise<Reservation> {
    return (await this.request("POST", "/api/v1/jobs", input)) as Reservation;
  }

  async charge(jobId: string, tokens: number, options: { step?: number } = {}): Promise<ChargeResult> {
    return (await this.request("POST", `/api/v1/jobs/${encodeURIComponent(jobId)}/charge`, { tokens, ...options })) as ChargeResult;
  }

  async extend(jobId: string, tokens: number, options: { step?: number } = {}): Promise<ExtendResult> {
    try {
      const body = (await this.request("POST", `/api/v1/jobs/${encodeURIComponent(jobId)}/extend`, { tokens, ...options })) as {
        outcome: string;
        remaining: number | null;
        reason?: string;
        job: Job;
      };
      const outcome = body.outcome as ExtendResult["outcome"];
      return { outcome, granted: outcome === "extended", remaining: body.remaining, reason: body.reason ?? null, job: body.job };
    } catch (error) {
      if (error instanceof GateRefusedError) return { outcome: "refused", granted: false, remaining: error.remaining, reason: error.reason, job: null };
      throw error;
    }
  }

  async settle(jobId: string, input: { used?: number; outcome: "completed" | "failed" | "cancelled" }): Promise<SettleResult> {
    return (await this.request("POST", `/api/v1/jobs/${encodeURIComponent(jobId)}/settle`, input)) as SettleResult;
  }

  async getJob(jobId: string): Promise<{ job: Job; events: { at: string; kind: string; units: number; note: string | null }[] }> {
    return (await this.request("GET", `/api/v1/jobs/${encodeURIComponent(jobId)}`)) as never;
  }

  async budget(accountId: string, feature = "tokens"): Promise<{ budget: { limit: number | null; used: number; held: number; remaining: number | null; cycle: string } }> {
    return (await this.request("GET", `/api/v1/accounts/${encodeURIComponent(accountId)}/budget?feature=${encodeURIComponent(feature)}`)) as never;
  }

  /**
   * Runs `work` under a hold: reserves, hands the work a job to charge, and
   * settles it — `completed` with what was charged when `work` returns,
   * `failed` with the usage so far when it throws (the error is rethrown).
   * A step past the hold throws JobCappedError out of job.charge and out of
   * withHold (the gate has already settled the job at its hold).
   */
  async withHold<T>(input: { key: string; estimate: number; feature?: string }, work: (job: HeldJob) => Promise<T>): Promise<T> {
    const reservation = await this.reserve(input);
    if (reservation.status !== "running") {
      // A replayed key whose job already ended: nothing to run.
      throw new GateError(409, "already_settled", `Job ${reservation.id} for key ${input.key} already ended (${reservation.status}).`, reservation);
    }
    let step = reservation.steps;
    let held = reservation.held;
    let used = reservation.used;
    let capped: Job | null = null;
    const job: HeldJob = {
      id: reservation.id,
      get held() {
        return held;
      },
      get used() {
        return used;
      },
      charge: async (tokens) => {
        if (capped) throw new JobCappedError(capped);
        const result = await this.charge(reservation.id, tokens, { step: ++step });
        held = result.job.held;
        used = result.job.used;
        if (result.job.status === "capped") {
          capped = result.job;
          throw new JobCappedError(result.job);
        }
        if (result.job.status !== "running") throw new GateError(409, "already_settled", result.reason ?? `Job ${reservation.id} already ended (${result.job.status}).`, result);
      },
      extend: async (tokens) => {
        const before = held;
        const result = await this.extend(reservation.id, tokens, { step: ++step });
        if (result.job) held = result.job.held;
        // A replayed step (its first answer was lost) was granted if the hold grew.
        return result.outcome === "replayed" ? held > before : result.granted;
      },
    };
    let value: T;
    try {
      value = await work(job);
    } catch (error) {
      if (!(error instanceof JobCappedError)) {
        await this.settle(reservation.id, { used, outcome: "failed" }).catch(() => {
          // The work's error matters more; the sweeper settles the job if this settle never lands.
        });
      }
      throw error;
    }
    await this.settle(reservation.id, { used, outcome: "completed" });
    return value;
  }

  private async request(method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    let lastError: unknown;
    for (let attempt = 1; attempt <= this.tries; attempt++) {
      let response: Response;
      try {
        response = await this.fetchFn(`${this.base}${path}`, {
          method,
          headers: { authorization: `Bearer ${this.options.apiKey}`, ...(payload ? { "content-type": "application/json" } : {}) },
          body: payload,
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (error) {
        // No answer (refused, reset, timed out): the same request again is safe.
        lastError = error;
        if (attempt < this.tries) await new Promise((resolve) => setTimeout(resolve, this.retryWaitMs(attempt)));
        continue;
      }
      if (RETRYABLE_STATUSES.has(response.status) && attempt < this.tries) {
        lastError = new GateError(response.status, "unavailable", `HTTP ${response.status}`, null);
        await response.body?.cancel();
        await new Promise((resolve) => setTimeout(resolve, this.retryWaitMs(attempt)));
        continue;
      }
      const text = await response.text();
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = text;
      }
      if (response.ok) return parsed;
      throw toError(response, parsed);
    }
    throw lastError;
  }
}

function toError(response: Response, parsed: unknown): GateError {
  const error = (typeof parsed === "object" && parsed !== null && "error" in parsed ? (parsed as { error: Record<string, unknown> }).error : {}) as {
    code?: string;
    message?: string;
  } & Record<string, unknown>;
  const code = error.code ?? "http_error";
  const message = error.message ?? `HTTP ${response.status}`;
  const retryAfterSeconds = Number(response.headers.get("retry-after") ?? "1") || 1;
  if (response.status === 402) return new GateRefusedError(response.status, code, message, error as never);
  if (response.status === 429) return new GateRateLimitedError(response.status, code, message, error, retryAfterSeconds);
  if (response.status === 503 && code === "limit_unavailable") return new GateLimitUnavailableError(response.status, code, message, error, retryAfterSeconds);
  return new GateError(response.status, code, message, error);
}
