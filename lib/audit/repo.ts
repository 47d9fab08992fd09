/**
 * The audit log: one row per operator action (and per member action that
 * changes something, such as a replay), with who, what, which and when.
 * Append-only. Written by recordAudit() inside the acting script, or by
 * audit() from a route after its action (lib/audit/audit.ts); read by the
 * dashboard's Audit log page.
 */
export type ActorKind = "operator" | "member" | "key" | "operator_token" | "system";

export interface AuditEntry {
  id: string; // aud_…
  /** `<atMs, 15 digits>-<id>`: sorts by time, unique, the page cursor. */
  sortKey: string;
  atMs: number;
  actorKind: ActorKind;
  /** usr_… or key_…; null for the operator token and the system. */
  actorId: string | null;
  /** What a person reads: "ana@example.com", "key tb_live_AbCd…wxyz", "operator token". */
  actorLabel: string;
  /** dotted verb, e.g. "keys.create", "inbox.replay", "account.update". */
  action: string;
  /** What it was done to: an id such as acct_…, key_…, evt_…. */
  target: string;
  /** The account it concerns, when there is one (for per-account views). */
  accountId: string | null;
  /** JSON text of a small object (≤ 4 KiB). Never secrets. */
  detail: string;
}

export interface AuditRepo {
  insert(entry: AuditEntry): Promise<void>;
  /** Newest first, sortKey < beforeSortKey when given; at most `limit` (≤ 200). */
  list(options: { limit: number; beforeSortKey?: string }): Promise<AuditEntry[]>;
  /** The same, for one account. */
  listByAccount(accountId: string, options: { limit: number; beforeSortKey?: string }): Promise<AuditEntry[]>;
}
