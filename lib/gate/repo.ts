/**
 * The gate's tables (Part A). SQLite: migration 0005_gate; Convex:
 * convex/tables/gate.ts. Same fields, same indexes.
 *
 *  budgets      one row per account, feature and cycle: the limit snapshot, used and held. The serial point:
 *               every admission and settlement writes it, so nothing else lives on it.
 *               Written by gate.reserve, gate.extend, gate.settle, gate.charge (on a cap), gate.sweep; read by
 *               those and by the pages and GET /api/v1/accounts/:id/budget.
 *  jobs         one row per admitted job (a refusal writes nothing). Written by the same scripts; read by them,
 *               the sweeper (index on status and lease expiry) and the pages.
 *  job_events   a job's timeline, one row per thing that happened to it. Written beside each job write;
 *               read by the account page and GET /api/v1/jobs/:id.
 *  gate_limits  the limit cache, one row per account and feature: the last value read from the provider, when,
 *               from which provider, and the last attempt. Written by the limit refresh (gate.claimLimitRead,
 *               gate.storeLimit, gate.recordLimitFailure) and dropped by gate.dropLimit (the inbox, on a plan
 *               event); read by gate.reserve and gate.extend inside their transaction.
 *  gate_billing the account's billing row: the admission rate limit's counter and the account's rate. Written
 *               by gate.reserve on each admission and by gate.configureAccount; never by settlement.
 */
import type { LimitCacheState } from "./freshness";

export const JOB_STATUSES = ["running", "completed", "failed", "cancelled", "capped", "expired"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
/** How a worker may end its own job. */
export const SETTLE_OUTCOMES = ["completed", "failed", "cancelled"] as const;
export type SettleOutcome = (typeof SETTLE_OUTCOMES)[number];

export interface Budget {
  accountId: string;
  feature: string;
  /** "YYYY-MM": the cycle of the jobs it holds for (lib/usage/cycle.ts). */
  cycle: string;
  /** The limit in force at the last admission or extension (null: no maximum). Never resizes a hold. */
  limitUnits: number | null;
  /** Sum of what settled jobs of this cycle were charged. */
  usedUnits: number;
  /** Sum of the holds of running jobs of this cycle. */
  heldUnits: number;
}

export interface Job {
  id: string; // job_…
  accountId: string;
  feature: string;
  cycle: string;
  /** The caller's idempotency key, unique per account: a replay returns this job and holds nothing new. */
  key: string;
  /** What reserve was asked for. */
  estimateUnits: number;
  /** The hold: the estimate plus every granted extension. Kept after settlement as the record of what was held. */
  heldUnits: number;
  /** What the job's steps have charged against the hold so far (never more than heldUnits). */
  usedUnits: number;
  status: JobStatus;
  /** Charge and extend steps applied; a retried step with a number already applied changes nothing. */
  steps: number;
  /** A running job whose lease has run out is settled as expired by the sweeper. Renewed by every charge and extend. */
  leaseExpiresAtMs: number;
  createdAtMs: number;
  updatedAtMs: number;
  /** Set once, at settlement. */
  settledAtMs: number | null;
  chargedUnits: number | null;
  releasedUnits: number | null;
  /** Why the job ended, in a sentence. */
  endReason: string | null;
}

export type JobPatch = Partial<Omit<Job, "id" | "accountId" | "feature" | "cycle" | "key" | "estimateUnits" | "createdAtMs">>;

export const JOB_EVENT_KINDS = ["reserved", "charged", "capped", "extended", "extend_refused", "settled", "expired"] as const;
export type JobEventKind = (typeof JOB_EVENT_KINDS)[number];

export interface JobEvent {
  jobId: string;
  atMs: number;
  kind: JobEventKind;
  /** The amount the event is about (held, charged, granted…); 0 when none. */
  units: number;
  note: string | null;
}

export interface CachedLimit extends LimitCacheState {
  accountId: string;
  feature: string;
  /** The provider the value came from ("standin" or "kinde"). */
  source: string;
}

export interface BillingRow {
  accountId: string;
  /** New jobs this account may start per minute (120 unless an operator set another). */
  admissionsPerMinute: number;
  windowStartMs: number;
  windowAdmissions: number;
}

export interface GateRepo {
  getBudget(accountId: string, feature: string, cycle: string): Promise<Budget | null>;
  /** Inserts or replaces the row's three numbers. */
  putBudget(budget: Budget): Promise<void>;
  /** An account's budgets, newest cycle first, at most `limit` (≤ 50). */
  listBudgets(accountId: string, limit: number): Promise<Budget[]>;

  getJob(id: string): Promise<Job | null>;
  getJobByKey(accountId: string, key: string): Promise<Job | null>;
  insertJob(job: Job): Promise<void>;
  updateJob(id: string, patch: JobPatch): Promise<void>;
  /** Running jobs whose lease ran out at or before `nowMs`, oldest lease first, at most `limit` (≤ 500). Index (status, leaseExpiresAtMs). */
  listExpiredJobs(nowMs: number, limit: number): Promise<Job[]>;
  /** An account's jobs, newest first, at most `limit` (≤ 200); only running ones when asked. */
  listJobs(accountId: string, options: { runningOnly: boolean; limit: number }): Promise<Job[]>;

  insertJobEvent(event: JobEvent): Promise<void>;
  /** A job's latest `limit` (≤ 200) events, in the order they happened. */
  listJobEvents(jobId: string, limit: number): Promise<JobEvent[]>;

  getLimit(accountId: string, feature: string): Promise<CachedLimit | null>;
  putLimit(limit: CachedLimit): Promise<void>;
  deleteLimit(accountId: string, feature: string): Promise<void>;
  /** An account's cached limits, by feature, at most `limit` (≤ 50). */
  listLimits(accountId: string, limit: number): Promise<CachedLimit[]>;

  getBilling(accountId: string): Promise<BillingRow | null>;
  putBilling(row: BillingRow): Promise<void>;
}
