/**
 * The meter's own tables (Part B). The ledger, counters and marks live in
 * lib/usage/repo.ts; these record what the app did with them:
 *
 *  - meter_cycles: one row per (account, feature, cycle) that has usage: the
 *    last total sent, the last attempt, and the reporter's lease. Made by
 *    markCycle (lib/usage/record.ts) with the cycle's first mark; written by
 *    the reporter and the reconciler; read by both and by the pages.
 *  - meter_reports, the sent log: one row per meter write (total, time,
 *    result), by the reporter or by a reconciler repair. Read by the pages.
 *  - meter_reviews: closed cycles a person must look at (the reporter will
 *    not write a closed cycle; the reconciler flags a closed cycle's drift).
 *  - meter_evidence: what each reconciler run found, one row per cycle whose
 *    standing changed (a run over unchanged numbers adds no row).
 *  - meter_runs: one row per reconciler run, with its counts and its error.
 *  - meter_reconcile_requests: accounts queued for a reconcile (the inbox
 *    queues one on customer.meter_usage_updated); taken by a schedule.
 */

export type AttemptResult = "ok" | "failed" | "rate_limited";

export interface MeterCycle {
  accountId: string;
  feature: string;
  cycle: string;
  firstUsageAtMs: number;
  /** The last total a meter write set successfully; null: never written. */
  sentUnits: number | null;
  sentAtMs: number | null;
  /** The last write attempt, whatever its result. */
  lastAttemptUnits: number | null;
  lastAttemptAtMs: number | null;
  lastAttemptResult: AttemptResult | null;
  /** A report in flight: until this time the taken mark is the reporter's; 0 when none. */
  leaseUntilMs: number;
}

export type MeterCyclePatch = Partial<Omit<MeterCycle, "accountId" | "feature" | "cycle" | "firstUsageAtMs">>;

export type SentBy = "reporter" | "reconciler";

/** One row of the sent log. */
export interface MeterReport {
  accountId: string;
  feature: string;
  cycle: string;
  totalUnits: number;
  atMs: number;
  result: AttemptResult;
  /** Why a write failed, in words (the provider's message). */
  detail: string | null;
  sentBy: SentBy;
}

export interface MeterReview {
  accountId: string;
  feature: string;
  cycle: string;
  status: "open" | "resolved";
  /** The ledger total when the cycle was last put on the list. */
  ledgerUnits: number;
  /** The meter's total when known (the reconciler read it); null from the reporter. */
  providerUnits: number | null;
  reason: string;
  firstAtMs: number;
  lastAtMs: number;
  resolvedAtMs: number | null;
  resolution: string | null;
}

export type Verdict = "unreadable" | "match" | "closed_cycle_drift" | "over_billed" | "under_billed";
export type EvidenceOutcome = "none" | "repaired_confirmed" | "repair_unconfirmed" | "review";

export interface MeterEvidence {
  id: string; // evd_…
  /** The run that found it (run_…). */
  runId: string;
  accountId: string;
  feature: string;
  cycle: string;
  atMs: number;
  closed: boolean;
  /** The sum of the cycle's ledger rows. */
  ledgerUnits: number;
  /** The sharded counter's total as found (before any rebuild). */
  counterUnits: number;
  countersRebuilt: boolean;
  /** The last total sent before this run (null: never sent). */
  sentUnits: number | null;
  lastReportFailed: boolean;
  /** The provider's total as read; null: unreadable. */
  providerUnits: number | null;
  verdict: Verdict;
  cause: string;
  /** The total a repair wrote (the ledger), or null. */
  repairUnits: number | null;
  readBackUnits: number | null;
  outcome: EvidenceOutcome;
  /** The numbers as they stand after the run; a run whose standing equals the last row's adds no row. */
  standing: string;
}

export type RunTrigger = "nightly" | "on_demand" | "requested";

export interface MeterRun {
  id: string; // run_…
  trigger: RunTrigger;
  /** Set when the run covered one account only. */
  accountId: string | null;
  startedAtMs: number;
  finishedAtMs: number | null;
  accounts: number;
  cycles: number;
  evidenceRows: number;
  repairs: number;
  countersRebuilt: number;
  /** Why the run ended with an error (an unconfirmed repair, a failure); null when it did not. */
  error: string | null;
}

export type MeterRunPatch = Partial<Omit<MeterRun, "id" | "trigger" | "accountId" | "startedAtMs">>;

export interface ReconcileRequest {
  accountId: string;
  requestedAtMs: number;
  reason: string;
}

export interface MeterRepo {
  getCycle(accountId: string, feature: string, cycle: string): Promise<MeterCycle | null>;
  insertCycle(row: MeterCycle): Promise<void>;
  patchCycle(accountId: string, feature: string, cycle: string, patch: MeterCyclePatch): Promise<void>;
  /** An account's cycles ordered by (feature, cycle), after `after`; at most `limit` (≤ 200). */
  listCycles(accountId: string, limit: number, after?: { feature: string; cycle: string }): Promise<MeterCycle[]>;
  /** An account's cycles ordered by (feature, cycle) descending: the newest first; at most `limit` (≤ 200). */
  listRecentCycles(accountId: string, limit: number): Promise<MeterCycle[]>;
  /** Cycles whose reporter lease ran out (0 < leaseUntilMs ≤ nowMs), earliest first; at most `limit` (≤ 500). */
  listExpiredLeases(nowMs: number, limit: number): Promise<MeterCycle[]>;

  insertReport(report: MeterReport): Promise<void>;
  /** A cycle's sent log, newest first; at most `limit` (≤ 200). */
  listReports(accountId: string, feature: string, cycle: string, limit: number): Promise<MeterReport[]>;

  getReview(accountId: string, feature: string, cycle: string): Promise<MeterReview | null>;
  /** Inserts or replaces the cycle's review row. */
  putReview(review: MeterReview): Promise<void>;
  /** Reviews with a status, most recently touched first; at most `limit` (≤ 200). */
  listReviews(status: MeterReview["status"], limit: number): Promise<MeterReview[]>;

  insertEvidence(row: MeterEvidence): Promise<void>;
  /** A cycle's evidence, newest first; at most `limit` (≤ 200). */
  listEvidence(accountId: string, feature: string, cycle: string, limit: number): Promise<MeterEvidence[]>;
  /** The rows one run added, in order; at most `limit` (≤ 500). */
  listEvidenceOfRun(runId: string, limit: number): Promise<MeterEvidence[]>;

  insertRun(run: MeterRun): Promise<void>;
  getRun(id: string): Promise<MeterRun | null>;
  patchRun(id: string, patch: MeterRunPatch): Promise<void>;
  /** Runs, newest first; at most `limit` (≤ 100). */
  listRuns(limit: number): Promise<MeterRun[]>;
  /** The newest run with this trigger, or null. */
  lastRun(trigger: RunTrigger): Promise<MeterRun | null>;

  getRequest(accountId: string): Promise<ReconcileRequest | null>;
  /** Inserts or replaces the account's request. */
  putRequest(request: ReconcileRequest): Promise<void>;
  /** Requests, oldest first; at most `limit` (≤ 100). */
  listRequests(limit: number): Promise<ReconcileRequest[]>;
  deleteRequest(accountId: string): Promise<void>;
}
