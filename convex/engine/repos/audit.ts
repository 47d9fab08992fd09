/** The audit log over Convex (convex/tables/audit.ts). */
import type { AuditEntry, AuditRepo } from "../../../lib/audit/repo";
import { type Db, takeRows } from "./db";

export function auditRepo(db: Db): AuditRepo {
  return {
    async insert(entry) {
      await db.insert("auditLog", entry);
    },
    async list({ limit, beforeSortKey }) {
      return takeRows<AuditEntry>(db
        .query("auditLog")
        .withIndex("by_sort_key", (q) => (beforeSortKey === undefined ? q : q.lt("sortKey", beforeSortKey)))
        .order("desc")
        , limit, 200);
    },
    async listByAccount(accountId, { limit, beforeSortKey }) {
      return takeRows<AuditEntry>(db
        .query("auditLog")
        .withIndex("by_account", (q) => (beforeSortKey === undefined ? q.eq("accountId", accountId) : q.eq("accountId", accountId).lt("sortKey", beforeSortKey)))
        .order("desc")
        , limit, 200);
    },
  };
}
