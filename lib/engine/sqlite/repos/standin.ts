/** The stand-in provider's tables over SQLite (migration 0004). */
import type Database from "better-sqlite3";
import type {
  FaultKind,
  StandinAgreement,
  StandinFault,
  StandinLimitOverride,
  StandinMeterRecord,
  StandinMeterTotal,
  StandinRepo,
  StandinSigningKey,
} from "../../../standin/repo";
import { lazyStatement } from "./lazy";

interface AgreementRow {
  account_id: string;
  id: string;
  plan_code: string;
  anchor_ms: number;
  created_at_ms: number;
  updated_at_ms: number;
}
interface OverrideRow {
  account_id: string;
  feature_code: string;
  limit_max: number | null;
  set_at_ms: number;
}
interface RecordRow {
  id: string;
  account_id: string;
  feature_code: string;
  cycle: string;
  seq: number;
  kind: "absolute" | "delta";
  value: number;
  total_after: number;
  source: "write" | "drift";
  recorded_at_ms: number;
}
interface TotalRow {
  account_id: string;
  feature_code: string;
  cycle: string;
  total: number;
  records: number;
  updated_at_ms: number;
}
interface FaultRow {
  kind: FaultKind;
  remaining: number | null;
  amount: number | null;
  scope: string | null;
  set_at_ms: number;
}
interface KeyRow {
  kid: string;
  public_jwk: string;
  private_jwk: string;
  created_at_ms: number;
}

const toAgreement = (r: AgreementRow): StandinAgreement => ({
  accountId: r.account_id,
  id: r.id,
  planCode: r.plan_code,
  anchorMs: r.anchor_ms,
  createdAtMs: r.created_at_ms,
  updatedAtMs: r.updated_at_ms,
});
const toOverride = (r: OverrideRow): StandinLimitOverride => ({ accountId: r.account_id, featureCode: r.feature_code, limitMax: r.limit_max, setAtMs: r.set_at_ms });
const toRecord = (r: RecordRow): StandinMeterRecord => ({
  id: r.id,
  accountId: r.account_id,
  featureCode: r.feature_code,
  cycle: r.cycle,
  seq: r.seq,
  kind: r.kind,
  value: r.value,
  totalAfter: r.total_after,
  source: r.source,
  recordedAtMs: r.recorded_at_ms,
});
const toTotal = (r: TotalRow): StandinMeterTotal => ({
  accountId: r.account_id,
  featureCode: r.feature_code,
  cycle: r.cycle,
  total: r.total,
  records: r.records,
  updatedAtMs: r.updated_at_ms,
});
const toFault = (r: FaultRow): StandinFault => ({ kind: r.kind, remaining: r.remaining, amount: r.amount, scope: r.scope, setAtMs: r.set_at_ms });
const toKey = (r: KeyRow): StandinSigningKey => ({ kid: r.kid, publicJwk: r.public_jwk, privateJwk: r.private_jwk, createdAtMs: r.created_at_ms });

export function standinRepo(db: Database.Database): StandinRepo {
  const s = (sql: string) => lazyStatement(() => db.prepare(sql));
  const getAgreement = s("SELECT * FROM standin_agreements WHERE account_id = ?");
  const putAgreement = s(
    `INSERT INTO standin_agreements (account_id, id, plan_code, anchor_ms, created_at_ms, updated_at_ms)
     VALUES (@accountId, @id, @planCode, @anchorMs, @createdAtMs, @updatedAtMs)
     ON CONFLICT (account_id) DO UPDATE SET id = excluded.id, plan_code = excluded.plan_code, anchor_ms = excluded.anchor_ms, updated_at_ms = excluded.updated_at_ms`,
  );
  const getOverride = s("SELECT * FROM standin_limit_overrides WHERE account_id = ? AND feature_code = ?");
  const listOverrides = s("SELECT * FROM standin_limit_overrides WHERE account_id = ? ORDER BY feature_code LIMIT ?");
  const listAllFirst = s("SELECT * FROM standin_limit_overrides ORDER BY account_id, feature_code LIMIT ?");
  const listAllAfter = s("SELECT * FROM standin_limit_overrides WHERE (account_id, feature_code) > (?, ?) ORDER BY account_id, feature_code LIMIT ?");
  const putOverride = s(
    `INSERT INTO standin_limit_overrides (account_id, feature_code, limit_max, set_at_ms) VALUES (@accountId, @featureCode, @limitMax, @setAtMs)
     ON CONFLICT (account_id, feature_code) DO UPDATE SET limit_max = excluded.limit_max, set_at_ms = excluded.set_at_ms`,
  );
  const deleteOverride = s("DELETE FROM standin_limit_overrides WHERE account_id = ? AND feature_code = ?");
  const getTotal = s("SELECT * FROM standin_meter_totals WHERE account_id = ? AND feature_code = ? AND cycle = ?");
  const putTotal = s(
    `INSERT INTO standin_meter_totals (account_id, feature_code, cycle, total, records, updated_at_ms)
     VALUES (@accountId, @featureCode, @cycle, @total, @records, @updatedAtMs)
     ON CONFLICT (account_id, feature_code, cycle) DO UPDATE SET total = excluded.total, records = excluded.records, updated_at_ms = excluded.updated_at_ms`,
  );
  const insertRecord = s(
    `INSERT INTO standin_meter_records (id, account_id, feature_code, cycle, seq, kind, value, total_after, source, recorded_at_ms)
     VALUES (@id, @accountId, @featureCode, @cycle, @seq, @kind, @value, @totalAfter, @source, @recordedAtMs)`,
  );
  const listRecords = s("SELECT * FROM standin_meter_records WHERE account_id = ? AND feature_code = ? AND cycle = ? ORDER BY seq DESC LIMIT ?");
  const listFaults = s("SELECT * FROM standin_faults ORDER BY kind LIMIT 20");
  const putFault = s(
    `INSERT INTO standin_faults (kind, remaining, amount, scope, set_at_ms) VALUES (@kind, @remaining, @amount, @scope, @setAtMs)
     ON CONFLICT (kind) DO UPDATE SET remaining = excluded.remaining, amount = excluded.amount, scope = excluded.scope, set_at_ms = excluded.set_at_ms`,
  );
  const deleteFault = s("DELETE FROM standin_faults WHERE kind = ?");
  const listKeys = s("SELECT * FROM standin_signing_keys ORDER BY created_at_ms DESC, kid DESC LIMIT ?");
  const insertKey = s("INSERT INTO standin_signing_keys (kid, public_jwk, private_jwk, created_at_ms) VALUES (@kid, @publicJwk, @privateJwk, @createdAtMs)");

  return {
    async getAgreement(accountId) {
      const row = getAgreement().get(accountId) as AgreementRow | undefined;
      return row ? toAgreement(row) : null;
    },
    async putAgreement(agreement) {
      putAgreement().run(agreement);
    },
    async getOverride(accountId, featureCode) {
      const row = getOverride().get(accountId, featureCode) as OverrideRow | undefined;
      return row ? toOverride(row) : null;
    },
    async listOverrides(accountId, limit) {
      return (listOverrides().all(accountId, limit) as OverrideRow[]).map(toOverride);
    },
    async listAllOverrides({ limit, after }) {
      const rows = (after ? listAllAfter().all(after.accountId, after.featureCode, limit) : listAllFirst().all(limit)) as OverrideRow[];
      return rows.map(toOverride);
    },
    async putOverride(override) {
      putOverride().run(override);
    },
    async deleteOverride(accountId, featureCode) {
      deleteOverride().run(accountId, featureCode);
    },
    async getTotal(accountId, featureCode, cycle) {
      const row = getTotal().get(accountId, featureCode, cycle) as TotalRow | undefined;
      return row ? toTotal(row) : null;
    },
    async putTotal(total) {
      putTotal().run(total);
    },
    async insertRecord(record) {
      insertRecord().run(record);
    },
    async listRecords(accountId, featureCode, cycle, limit) {
      return (listRecords().all(accountId, featureCode, cycle, limit) as RecordRow[]).map(toRecord);
    },
    async listFaults() {
      return (listFaults().all() as FaultRow[]).map(toFault);
    },
    async putFault(fault) {
      putFault().run(fault);
    },
    async deleteFault(kind) {
      deleteFault().run(kind);
    },
    async listKeys(limit) {
      return (listKeys().all(limit) as KeyRow[]).map(toKey);
    },
    async insertKey(key) {
      insertKey().run(key);
    },
  };
}
