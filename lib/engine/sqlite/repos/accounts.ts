/** Accounts over SQLite (migration 0001). */
import type Database from "better-sqlite3";
import type { Account, AccountPatch, AccountsRepo } from "../../../accounts/repo";
import { lazyStatement, patcher } from "./lazy";

interface AccountRow {
  id: string;
  name: string;
  kinde_customer_id: string | null;
  plan: string;
  plan_changed_at_ms: number;
  agreement_id: string | null;
  cycle_anchor_ms: number | null;
  billing_status: string;
  created_at_ms: number;
}

const accountColumns: Record<keyof AccountPatch, keyof AccountRow> = {
  name: "name",
  kindeCustomerId: "kinde_customer_id",
  plan: "plan",
  planChangedAtMs: "plan_changed_at_ms",
  agreementId: "agreement_id",
  cycleAnchorMs: "cycle_anchor_ms",
  billingStatus: "billing_status",
};

function toAccount(row: AccountRow | undefined): Account | null {
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    kindeCustomerId: row.kinde_customer_id,
    plan: row.plan,
    planChangedAtMs: row.plan_changed_at_ms,
    agreementId: row.agreement_id,
    cycleAnchorMs: row.cycle_anchor_ms,
    billingStatus: row.billing_status,
    createdAtMs: row.created_at_ms,
  };
}

export function accountsRepo(db: Database.Database): AccountsRepo {
  const insert = lazyStatement(() =>
    db.prepare(
      `INSERT INTO accounts (id, name, kinde_customer_id, plan, plan_changed_at_ms, agreement_id, cycle_anchor_ms, billing_status, created_at_ms)
       VALUES (@id, @name, @kindeCustomerId, @plan, @planChangedAtMs, @agreementId, @cycleAnchorMs, @billingStatus, @createdAtMs)`,
    ),
  );
  const byId = lazyStatement(() => db.prepare("SELECT * FROM accounts WHERE id = ?"));
  const byCustomer = lazyStatement(() => db.prepare("SELECT * FROM accounts WHERE kinde_customer_id = ?"));
  const listFirst = lazyStatement(() => db.prepare("SELECT * FROM accounts ORDER BY id LIMIT ?"));
  const listAfter = lazyStatement(() => db.prepare("SELECT * FROM accounts WHERE id > ? ORDER BY id LIMIT ?"));
  const patchRow = patcher<AccountPatch>(db, "accounts", accountColumns);

  return {
    async insert(account) {
      insert().run(account);
    },
    async get(id) {
      return toAccount(byId().get(id) as AccountRow | undefined);
    },
    async getByKindeCustomerId(kindeCustomerId) {
      return toAccount(byCustomer().get(kindeCustomerId) as AccountRow | undefined);
    },
    async list({ limit, afterId }) {
      const rows = (afterId === undefined ? listFirst().all(limit) : listAfter().all(afterId, limit)) as AccountRow[];
      return rows.map((r) => toAccount(r)!);
    },
    async patch(id, patch) {
      patchRow(id, patch);
    },
  };
}
