/** The gate's tables over SQLite (migration 0005): budgets, jobs, job_events, gate_limits, gate_billing. */
import type Database from "better-sqlite3";
import type { BillingRow, Budget, CachedLimit, GateRepo, Job, JobEvent, JobPatch } from "../../../gate/repo";
import { lazyStatement } from "./lazy";

interface BudgetRow {
  account_id: string;
  feature: string;
  cycle: string;
  limit_units: number | null;
  used_units: number;
  held_units: number;
}

interface JobRow {
  id: string;
  account_id: string;
  feature: string;
  cycle: string;
  key: string;
  estimate_units: number;
  held_units: number;
  used_units: number;
  status: Job["status"];
  steps: number;
  lease_expires_at_ms: number;
  created_at_ms: number;
  updated_at_ms: number;
  settled_at_ms: number | null;
  charged_units: number | null;
  released_units: number | null;
  end_reason: string | null;
}

interface EventRow {
  job_id: string;
  at_ms: number;
  kind: JobEvent["kind"];
  units: number;
  note: string | null;
}

interface LimitRow {
  account_id: string;
  feature: string;
  kind: CachedLimit["kind"];
  max_units: number | null;
  read_at_ms: number | null;
  last_attempt_at_ms: number | null;
  source: string;
  last_error: string | null;
}

interface BillingDbRow {
  account_id: string;
  admissions_per_minute: number;
  window_start_ms: number;
  window_admissions: number;
}

const toBudget = (r: BudgetRow): Budget => ({
  accountId: r.account_id,
  feature: r.feature,
  cycle: r.cycle,
  limitUnits: r.limit_units,
  usedUnits: r.used_units,
  heldUnits: r.held_units,
});

const toJob = (r: JobRow): Job => ({
  id: r.id,
  accountId: r.account_id,
  feature: r.feature,
  cycle: r.cycle,
  key: r.key,
  estimateUnits: r.estimate_units,
  heldUnits: r.held_units,
  usedUnits: r.used_units,
  status: r.status,
  steps: r.steps,
  leaseExpiresAtMs: r.lease_expires_at_ms,
  createdAtMs: r.created_at_ms,
  updatedAtMs: r.updated_at_ms,
  settledAtMs: r.settled_at_ms,
  chargedUnits: r.charged_units,
  releasedUnits: r.released_units,
  endReason: r.end_reason,
});

const toEvent = (r: EventRow): JobEvent => ({ jobId: r.job_id, atMs: r.at_ms, kind: r.kind, units: r.units, note: r.note });

const toLimit = (r: LimitRow): CachedLimit => ({
  accountId: r.account_id,
  feature: r.feature,
  kind: r.kind,
  maxUnits: r.max_units,
  readAtMs: r.read_at_ms,
  lastAttemptAtMs: r.last_attempt_at_ms,
  source: r.source,
  lastError: r.last_error,
});

const toBilling = (r: BillingDbRow): BillingRow => ({
  accountId: r.account_id,
  admissionsPerMinute: r.admissions_per_minute,
  windowStartMs: r.window_start_ms,
  windowAdmissions: r.window_admissions,
});

const jobColumns: Record<keyof JobPatch, keyof JobRow> = {
  heldUnits: "held_units",
  usedUnits: "used_units",
  status: "status",
  steps: "steps",
  leaseExpiresAtMs: "lease_expires_at_ms",
  updatedAtMs: "updated_at_ms",
  settledAtMs: "settled_at_ms",
  chargedUnits: "charged_units",
  releasedUnits: "released_units",
  endReason: "end_reason",
};

export function gateRepo(db: Database.Database): GateRepo {
  const getBudget = lazyStatement(() => db.prepare("SELECT * FROM budgets WHERE account_id = ? AND feature = ? AND cycle = ?"));
  const putBudget = lazyStatement(() =>
    db.prepare(
      `INSERT INTO budgets (account_id, feature, cycle, limit_units, used_units, held_units)
       VALUES (@accountId, @feature, @cycle, @limitUnits, @usedUnits, @heldUnits)
       ON CONFLICT (account_id, feature, cycle) DO UPDATE SET
         limit_units = excluded.limit_units, used_units = excluded.used_units, held_units = excluded.held_units`,
    ),
  );
  const listBudgets = lazyStatement(() => db.prepare("SELECT * FROM budgets WHERE account_id = ? ORDER BY cycle DESC, feature LIMIT ?"));
  const getJob = lazyStatement(() => db.prepare("SELECT * FROM jobs WHERE id = ?"));
  const getJobByKey = lazyStatement(() => db.prepare("SELECT * FROM jobs WHERE account_id = ? AND key = ?"));
  const insertJob = lazyStatement(() =>
    db.prepare(
      `INSERT INTO jobs (id, account_id, feature, cycle, key, estimate_units, held_units, used_units, status, steps,
         lease_expires_at_ms, created_at_ms, updated_at_ms, settled_at_ms, charged_units, released_units, end_reason)
       VALUES (@id, @accountId, @feature, @cycle, @key, @estimateUnits, @heldUnits, @usedUnits, @status, @steps,
         @leaseExpiresAtMs, @createdAtMs, @updatedAtMs, @settledAtMs, @chargedUnits, @releasedUnits, @endReason)`,
    ),
  );
  const listExpired = lazyStatement(() =>
    db.prepare("SELECT * FROM jobs WHERE status = 'running' AND lease_expires_at_ms <= ? ORDER BY lease_expires_at_ms LIMIT ?"),
  );
  const listJobs = lazyStatement(() => db.prepare("SELECT * FROM jobs WHERE account_id = ? ORDER BY created_at_ms DESC, id DESC LIMIT ?"));
  const listRunning = lazyStatement(() =>
    db.prepare("SELECT * FROM jobs WHERE account_id = ? AND status = 'running' ORDER BY created_at_ms DESC, id DESC LIMIT ?"),
  );
  const insertEvent = lazyStatement(() =>
    db.prepare("INSERT INTO job_events (job_id, at_ms, kind, units, note) VALUES (@jobId, @atMs, @kind, @units, @note)"),
  );
  const listEvents = lazyStatement(() =>
    db.prepare("SELECT * FROM (SELECT * FROM job_events WHERE job_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq"),
  );
  const getLimit = lazyStatement(() => db.prepare("SELECT * FROM gate_limits WHERE account_id = ? AND feature = ?"));
  const putLimit = lazyStatement(() =>
    db.prepare(
      `INSERT INTO gate_limits (account_id, feature, kind, max_units, read_at_ms, last_attempt_at_ms, source, last_error)
       VALUES (@accountId, @feature, @kind, @maxUnits, @readAtMs, @lastAttemptAtMs, @source, @lastError)
       ON CONFLICT (account_id, feature) DO UPDATE SET
         kind = excluded.kind, max_units = excluded.max_units, read_at_ms = excluded.read_at_ms,
         last_attempt_at_ms = excluded.last_attempt_at_ms, source = excluded.source, last_error = excluded.last_error`,
    ),
  );
  const deleteLimit = lazyStatement(() => db.prepare("DELETE FROM gate_limits WHERE account_id = ? AND feature = ?"));
  const listLimits = lazyStatement(() => db.prepare("SELECT * FROM gate_limits WHERE account_id = ? ORDER BY feature LIMIT ?"));
  const getBilling = lazyStatement(() => db.prepare("SELECT * FROM gate_billing WHERE account_id = ?"));
  const putBilling = lazyStatement(() =>
    db.prepare(
      `INSERT INTO gate_billing (account_id, admissions_per_minute, window_start_ms, window_admissions)
       VALUES (@accountId, @admissionsPerMinute, @windowStartMs, @windowAdmissions)
       ON CONFLICT (account_id) DO UPDATE SET
         admissions_per_minute = excluded.admissions_per_minute, window_start_ms = excluded.window_start_ms,
         window_admissions = excluded.window_admissions`,
    ),
  );
  const jobPatches = new Map<string, Database.Statement>();

  return {
    async getBudget(accountId, feature, cycle) {
      const row = getBudget().get(accountId, feature, cycle) as BudgetRow | undefined;
      return row ? toBudget(row) : null;
    },
    async putBudget(budget) {
      putBudget().run(budget);
    },
    async listBudgets(accountId, limit) {
      return (listBudgets().all(accountId, Math.min(limit, 50)) as BudgetRow[]).map(toBudget);
    },
    async getJob(id) {
      const row = getJob().get(id) as JobRow | undefined;
      return row ? toJob(row) : null;
    },
    async getJobByKey(accountId, key) {
      const row = getJobByKey().get(accountId, key) as JobRow | undefined;
      return row ? toJob(row) : null;
    },
    async insertJob(job) {
      insertJob().run(job);
    },
    async updateJob(id, patch) {
      const keys = (Object.keys(patch) as (keyof JobPatch)[]).filter((k) => patch[k] !== undefined).sort();
      if (keys.length === 0) return;
      const cacheKey = keys.join(",");
      let statement = jobPatches.get(cacheKey);
      if (!statement) {
        statement = db.prepare(`UPDATE jobs SET ${keys.map((k) => `${jobColumns[k]} = @${k}`).join(", ")} WHERE id = @id`);
        jobPatches.set(cacheKey, statement);
      }
      statement.run({ ...Object.fromEntries(keys.map((k) => [k, patch[k]])), id });
    },
    async listExpiredJobs(nowMs, limit) {
      return (listExpired().all(nowMs, Math.min(limit, 500)) as JobRow[]).map(toJob);
    },
    async listJobs(accountId, { runningOnly, limit }) {
      const statement = runningOnly ? listRunning() : listJobs();
      return (statement.all(accountId, Math.min(limit, 200)) as JobRow[]).map(toJob);
    },
    async insertJobEvent(event) {
      insertEvent().run(event);
    },
    async listJobEvents(jobId, limit) {
      return (listEvents().all(jobId, Math.min(limit, 200)) as EventRow[]).map(toEvent);
    },
    async getLimit(accountId, feature) {
      const row = getLimit().get(accountId, feature) as LimitRow | undefined;
      return row ? toLimit(row) : null;
    },
    async putLimit(limit) {
      putLimit().run(limit);
    },
    async deleteLimit(accountId, feature) {
      deleteLimit().run(accountId, feature);
    },
    async listLimits(accountId, limit) {
      return (listLimits().all(accountId, Math.min(limit, 50)) as LimitRow[]).map(toLimit);
    },
    async getBilling(accountId) {
      const row = getBilling().get(accountId) as BillingDbRow | undefined;
      return row ? toBilling(row) : null;
    },
    async putBilling(row) {
      putBilling().run(row);
    },
  };
}
