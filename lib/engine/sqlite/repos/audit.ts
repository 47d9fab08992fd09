/** The audit log over SQLite (migration 0008). */
import type Database from "better-sqlite3";
import type { ActorKind, AuditEntry, AuditRepo } from "../../../audit/repo";
import { lazyStatement } from "./lazy";

interface Row {
  sort_key: string;
  id: string;
  at_ms: number;
  actor_kind: ActorKind;
  actor_id: string | null;
  actor_label: string;
  action: string;
  target: string;
  account_id: string | null;
  detail: string;
}

const toEntry = (r: Row): AuditEntry => ({
  id: r.id,
  sortKey: r.sort_key,
  atMs: r.at_ms,
  actorKind: r.actor_kind,
  actorId: r.actor_id,
  actorLabel: r.actor_label,
  action: r.action,
  target: r.target,
  accountId: r.account_id,
  detail: r.detail,
});

/** Sorts after every real sort key (they start with digits): "no cursor" means from the newest. */
const TOP = "\uffff";

export function auditRepo(db: Database.Database): AuditRepo {
  const insert = lazyStatement(() =>
    db.prepare(
      `INSERT INTO audit_log (sort_key, id, at_ms, actor_kind, actor_id, actor_label, action, target, account_id, detail)
       VALUES (@sortKey, @id, @atMs, @actorKind, @actorId, @actorLabel, @action, @target, @accountId, @detail)`,
    ),
  );
  const list = lazyStatement(() => db.prepare("SELECT * FROM audit_log WHERE sort_key < ? ORDER BY sort_key DESC LIMIT ?"));
  const byAccount = lazyStatement(() => db.prepare("SELECT * FROM audit_log WHERE account_id = ? AND sort_key < ? ORDER BY sort_key DESC LIMIT ?"));
  return {
    async insert(entry) {
      insert().run(entry);
    },
    async list({ limit, beforeSortKey }) {
      return (list().all(beforeSortKey ?? TOP, Math.min(limit, 200)) as Row[]).map(toEntry);
    },
    async listByAccount(accountId, { limit, beforeSortKey }) {
      return (byAccount().all(accountId, beforeSortKey ?? TOP, Math.min(limit, 200)) as Row[]).map(toEntry);
    },
  };
}
