/** The meter's tables over SQLite (migration 0006). */
import type Database from "better-sqlite3";
import type {
  MeterCycle,
  MeterCyclePatch,
  MeterEvidence,
  MeterRepo,
  MeterReport,
  MeterReview,
  MeterRun,
  MeterRunPatch,
  ReconcileRequest,
} from "../../../meter/repo";
import { lazyStatement } from "./lazy";

interface CycleRow {
  account_id: string;
  feature: string;
  cycle: string;
  first_usage_at_ms: number;
  sent_units: number | null;
  sent_at_ms: number | null;
  last_attempt_units: number | null;
  last_attempt_at_ms: number | null;
  last_attempt_result: MeterCycle["lastAttemptResult"];
  lease_until_ms: number;
}

const toCycle = (r: CycleRow): MeterCycle => ({
  accountId: r.account_id,
  feature: r.feature,
  cycle: r.cycle,
  firstUsageAtMs: r.first_usage_at_ms,
  sentUnits: r.sent_units,
  sentAtMs: r.sent_at_ms,
  lastAttemptUnits: r.last_attempt_units,
  lastAttemptAtMs: r.last_attempt_at_ms,
  lastAttemptResult: r.last_attempt_result,
  leaseUntilMs: r.lease_until_ms,
});

const cycleColumns: Record<keyof MeterCyclePatch, keyof CycleRow> = {
  sentUnits: "sent_units",
  sentAtMs: "sent_at_ms",
  lastAttemptUnits: "last_attempt_units",
  lastAttemptAtMs: "last_attempt_at_ms",
  lastAttemptResult: "last_attempt_result",
  leaseUntilMs: "lease_until_ms",
};

interface ReportRow {
  account_id: string;
  feature: string;
  cycle: string;
  total_units: number;
  at_ms: number;
  result: MeterReport["result"];
  detail: string | null;
  sent_by: MeterReport["sentBy"];
}

const toReport = (r: ReportRow): MeterReport => ({
  accountId: r.account_id,
  feature: r.feature,
  cycle: r.cycle,
  totalUnits: r.total_units,
  atMs: r.at_ms,
  result: r.result,
  detail: r.detail,
  sentBy: r.sent_by,
});

interface ReviewRow {
  account_id: string;
  feature: string;
  cycle: string;
  status: MeterReview["status"];
  ledger_units: number;
  provider_units: number | null;
  reason: string;
  first_at_ms: number;
  last_at_ms: number;
  resolved_at_ms: number | null;
  resolution: string | null;
}

const toReview = (r: ReviewRow): MeterReview => ({
  accountId: r.account_id,
  feature: r.feature,
  cycle: r.cycle,
  status: r.status,
  ledgerUnits: r.ledger_units,
  providerUnits: r.provider_units,
  reason: r.reason,
  firstAtMs: r.first_at_ms,
  lastAtMs: r.last_at_ms,
  resolvedAtMs: r.resolved_at_ms,
  resolution: r.resolution,
});

interface EvidenceRow {
  id: string;
  run_id: string;
  account_id: string;
  feature: string;
  cycle: string;
  at_ms: number;
  closed: number;
  ledger_units: number;
  counter_units: number;
  counters_rebuilt: number;
  sent_units: number | null;
  last_report_failed: number;
  provider_units: number | null;
  verdict: MeterEvidence["verdict"];
  cause: string;
  repair_units: number | null;
  read_back_units: number | null;
  outcome: MeterEvidence["outcome"];
  standing: string;
}

const toEvidence = (r: EvidenceRow): MeterEvidence => ({
  id: r.id,
  runId: r.run_id,
  accountId: r.account_id,
  feature: r.feature,
  cycle: r.cycle,
  atMs: r.at_ms,
  closed: r.closed === 1,
  ledgerUnits: r.ledger_units,
  counterUnits: r.counter_units,
  countersRebuilt: r.counters_rebuilt === 1,
  sentUnits: r.sent_units,
  lastReportFailed: r.last_report_failed === 1,
  providerUnits: r.provider_units,
  verdict: r.verdict,
  cause: r.cause,
  repairUnits: r.repair_units,
  readBackUnits: r.read_back_units,
  outcome: r.outcome,
  standing: r.standing,
});

interface RunRow {
  id: string;
  trigger: MeterRun["trigger"];
  account_id: string | null;
  started_at_ms: number;
  finished_at_ms: number | null;
  accounts: number;
  cycles: number;
  evidence_rows: number;
  repairs: number;
  counters_rebuilt: number;
  error: string | null;
}

const toRun = (r: RunRow): MeterRun => ({
  id: r.id,
  trigger: r.trigger,
  accountId: r.account_id,
  startedAtMs: r.started_at_ms,
  finishedAtMs: r.finished_at_ms,
  accounts: r.accounts,
  cycles: r.cycles,
  evidenceRows: r.evidence_rows,
  repairs: r.repairs,
  countersRebuilt: r.counters_rebuilt,
  error: r.error,
});

const runColumns: Record<keyof MeterRunPatch, keyof RunRow> = {
  finishedAtMs: "finished_at_ms",
  accounts: "accounts",
  cycles: "cycles",
  evidenceRows: "evidence_rows",
  repairs: "repairs",
  countersRebuilt: "counters_rebuilt",
  error: "error",
};

interface RequestRow {
  account_id: string;
  requested_at_ms: number;
  reason: string;
}

const toRequest = (r: RequestRow): ReconcileRequest => ({ accountId: r.account_id, requestedAtMs: r.requested_at_ms, reason: r.reason });

/** An UPDATE of the given fields only, prepared once per set of fields. */
function patcher<P extends object>(db: Database.Database, table: string, columns: Record<keyof P, string>, where: string) {
  const statements = new Map<string, Database.Statement>();
  return (patch: P, key: Record<string, unknown>) => {
    const fields = (Object.keys(patch) as (keyof P & string)[]).filter((k) => patch[k] !== undefined).sort();
    if (fields.length === 0) return;
    const cacheKey = fields.join(",");
    let statement = statements.get(cacheKey);
    if (!statement) {
      statement = db.prepare(`UPDATE ${table} SET ${fields.map((k) => `${columns[k]} = @${k}`).join(", ")} WHERE ${where}`);
      statements.set(cacheKey, statement);
    }
    statement.run({ ...Object.fromEntries(fields.map((k) => [k, patch[k]])), ...key });
  };
}

export function meterRepo(db: Database.Database): MeterRepo {
  const getCycle = lazyStatement(() => db.prepare("SELECT * FROM meter_cycles WHERE account_id = ? AND feature = ? AND cycle = ?"));
  const insertCycle = lazyStatement(() =>
    db.prepare(
      `INSERT INTO meter_cycles (account_id, feature, cycle, first_usage_at_ms, sent_units, sent_at_ms, last_attempt_units, last_attempt_at_ms, last_attempt_result, lease_until_ms)
       VALUES (@accountId, @feature, @cycle, @firstUsageAtMs, @sentUnits, @sentAtMs, @lastAttemptUnits, @lastAttemptAtMs, @lastAttemptResult, @leaseUntilMs)`,
    ),
  );
  let patchCycle: ReturnType<typeof patcher<MeterCyclePatch>> | undefined;
  const cyclesFirst = lazyStatement(() => db.prepare("SELECT * FROM meter_cycles WHERE account_id = ? ORDER BY feature, cycle LIMIT ?"));
  const cyclesAfter = lazyStatement(() =>
    db.prepare("SELECT * FROM meter_cycles WHERE account_id = ? AND (feature, cycle) > (?, ?) ORDER BY feature, cycle LIMIT ?"),
  );
  const recentCycles = lazyStatement(() => db.prepare("SELECT * FROM meter_cycles WHERE account_id = ? ORDER BY feature DESC, cycle DESC LIMIT ?"));
  const expiredLeases = lazyStatement(() =>
    db.prepare("SELECT * FROM meter_cycles WHERE lease_until_ms > 0 AND lease_until_ms <= ? ORDER BY lease_until_ms LIMIT ?"),
  );

  const insertReport = lazyStatement(() =>
    db.prepare(
      `INSERT INTO meter_reports (account_id, feature, cycle, total_units, at_ms, result, detail, sent_by)
       VALUES (@accountId, @feature, @cycle, @totalUnits, @atMs, @result, @detail, @sentBy)`,
    ),
  );
  const listReports = lazyStatement(() =>
    db.prepare("SELECT * FROM meter_reports WHERE account_id = ? AND feature = ? AND cycle = ? ORDER BY seq DESC LIMIT ?"),
  );

  const getReview = lazyStatement(() => db.prepare("SELECT * FROM meter_reviews WHERE account_id = ? AND feature = ? AND cycle = ?"));
  const putReview = lazyStatement(() =>
    db.prepare(
      `INSERT OR REPLACE INTO meter_reviews (account_id, feature, cycle, status, ledger_units, provider_units, reason, first_at_ms, last_at_ms, resolved_at_ms, resolution)
       VALUES (@accountId, @feature, @cycle, @status, @ledgerUnits, @providerUnits, @reason, @firstAtMs, @lastAtMs, @resolvedAtMs, @resolution)`,
    ),
  );
  const listReviews = lazyStatement(() => db.prepare("SELECT * FROM meter_reviews WHERE status = ? ORDER BY last_at_ms DESC LIMIT ?"));

  const insertEvidence = lazyStatement(() =>
    db.prepare(
      `INSERT INTO meter_evidence (id, run_id, account_id, feature, cycle, at_ms, closed, ledger_units, counter_units, counters_rebuilt, sent_units,
         last_report_failed, provider_units, verdict, cause, repair_units, read_back_units, outcome, standing)
       VALUES (@id, @runId, @accountId, @feature, @cycle, @atMs, @closed, @ledgerUnits, @counterUnits, @countersRebuilt, @sentUnits,
         @lastReportFailed, @providerUnits, @verdict, @cause, @repairUnits, @readBackUnits, @outcome, @standing)`,
    ),
  );
  const listEvidence = lazyStatement(() =>
    db.prepare("SELECT * FROM meter_evidence WHERE account_id = ? AND feature = ? AND cycle = ? ORDER BY seq DESC LIMIT ?"),
  );
  const evidenceOfRun = lazyStatement(() => db.prepare("SELECT * FROM meter_evidence WHERE run_id = ? ORDER BY seq LIMIT ?"));

  const insertRun = lazyStatement(() =>
    db.prepare(
      `INSERT INTO meter_runs (id, trigger, account_id, started_at_ms, finished_at_ms, accounts, cycles, evidence_rows, repairs, counters_rebuilt, error)
       VALUES (@id, @trigger, @accountId, @startedAtMs, @finishedAtMs, @accounts, @cycles, @evidenceRows, @repairs, @countersRebuilt, @error)`,
    ),
  );
  const getRun = lazyStatement(() => db.prepare("SELECT * FROM meter_runs WHERE id = ?"));
  let patchRun: ReturnType<typeof patcher<MeterRunPatch>> | undefined;
  const listRuns = lazyStatement(() => db.prepare("SELECT * FROM meter_runs ORDER BY started_at_ms DESC LIMIT ?"));
  const lastRun = lazyStatement(() => db.prepare("SELECT * FROM meter_runs WHERE trigger = ? ORDER BY started_at_ms DESC LIMIT 1"));

  const getRequest = lazyStatement(() => db.prepare("SELECT * FROM meter_reconcile_requests WHERE account_id = ?"));
  const putRequest = lazyStatement(() =>
    db.prepare("INSERT OR REPLACE INTO meter_reconcile_requests (account_id, requested_at_ms, reason) VALUES (@accountId, @requestedAtMs, @reason)"),
  );
  const listRequests = lazyStatement(() => db.prepare("SELECT * FROM meter_reconcile_requests ORDER BY requested_at_ms LIMIT ?"));
  const deleteRequest = lazyStatement(() => db.prepare("DELETE FROM meter_reconcile_requests WHERE account_id = ?"));

  const flag = (value: boolean) => (value ? 1 : 0);

  return {
    async getCycle(accountId, feature, cycle) {
      const row = getCycle().get(accountId, feature, cycle) as CycleRow | undefined;
      return row ? toCycle(row) : null;
    },
    async insertCycle(row) {
      insertCycle().run(row);
    },
    async patchCycle(accountId, feature, cycle, patch) {
      patchCycle ??= patcher<MeterCyclePatch>(db, "meter_cycles", cycleColumns, "account_id = @accountId AND feature = @feature AND cycle = @cycle");
      patchCycle(patch, { accountId, feature, cycle });
    },
    async listCycles(accountId, limit, after) {
      const take = Math.min(limit, 200);
      const rows = (after ? cyclesAfter().all(accountId, after.feature, after.cycle, take) : cyclesFirst().all(accountId, take)) as CycleRow[];
      return rows.map(toCycle);
    },
    async listRecentCycles(accountId, limit) {
      return (recentCycles().all(accountId, Math.min(limit, 200)) as CycleRow[]).map(toCycle);
    },
    async listExpiredLeases(nowMs, limit) {
      return (expiredLeases().all(nowMs, Math.min(limit, 500)) as CycleRow[]).map(toCycle);
    },

    async insertReport(report) {
      insertReport().run(report);
    },
    async listReports(accountId, feature, cycle, limit) {
      return (listReports().all(accountId, feature, cycle, Math.min(limit, 200)) as ReportRow[]).map(toReport);
    },

    async getReview(accountId, feature, cycle) {
      const row = getReview().get(accountId, feature, cycle) as ReviewRow | undefined;
      return row ? toReview(row) : null;
    },
    async putReview(review) {
      putReview().run(review);
    },
    async listReviews(status, limit) {
      return (listReviews().all(status, Math.min(limit, 200)) as ReviewRow[]).map(toReview);
    },

    async insertEvidence(row) {
      insertEvidence().run({ ...row, closed: flag(row.closed), countersRebuilt: flag(row.countersRebuilt), lastReportFailed: flag(row.lastReportFailed) });
    },
    async listEvidence(accountId, feature, cycle, limit) {
      return (listEvidence().all(accountId, feature, cycle, Math.min(limit, 200)) as EvidenceRow[]).map(toEvidence);
    },
    async listEvidenceOfRun(runId, limit) {
      return (evidenceOfRun().all(runId, Math.min(limit, 500)) as EvidenceRow[]).map(toEvidence);
    },

    async insertRun(run) {
      insertRun().run(run);
    },
    async getRun(id) {
      const row = getRun().get(id) as RunRow | undefined;
      return row ? toRun(row) : null;
    },
    async patchRun(id, patch) {
      patchRun ??= patcher<MeterRunPatch>(db, "meter_runs", runColumns, "id = @id");
      patchRun(patch, { id });
    },
    async listRuns(limit) {
      return (listRuns().all(Math.min(limit, 100)) as RunRow[]).map(toRun);
    },
    async lastRun(trigger) {
      const row = lastRun().get(trigger) as RunRow | undefined;
      return row ? toRun(row) : null;
    },

    async getRequest(accountId) {
      const row = getRequest().get(accountId) as RequestRow | undefined;
      return row ? toRequest(row) : null;
    },
    async putRequest(request) {
      putRequest().run(request);
    },
    async listRequests(limit) {
      return (listRequests().all(Math.min(limit, 100)) as RequestRow[]).map(toRequest);
    },
    async deleteRequest(accountId) {
      deleteRequest().run(accountId);
    },
  };
}
