import { z } from "zod";
import { mutation, query } from "../scripts/define";
import type { Tx } from "../store/port";
import { idOf } from "../validation";
import type { AuditEntry } from "./repo";

export const AUDIT_DETAIL_BYTES_MAX = 4096;

/** Who did something, as scripts receive it (lib/audit/audit.ts makes it from a principal). */
export const actorSchema = z.strictObject({
  kind: z.enum(["operator", "member", "key", "operator_token", "system"]),
  id: z.string().max(64).nullable(),
  label: z.string().min(1).max(200),
});
export type Actor = z.output<typeof actorSchema>;

const actionSchema = z.string().regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/, "a dotted action such as keys.create");
const detailSchema = z.record(z.string(), z.unknown());

export const auditEntrySchema = z.object({
  id: z.string(),
  sortKey: z.string(),
  atMs: z.number(),
  actorKind: z.enum(["operator", "member", "key", "operator_token", "system"]),
  actorId: z.string().nullable(),
  actorLabel: z.string(),
  action: z.string(),
  target: z.string(),
  accountId: z.string().nullable(),
  detail: z.string(),
});

/**
 * Writes one audit row inside the calling script's transaction, so the action
 * and its record commit together or not at all. Use this from scripts; use
 * audit() (lib/audit/audit.ts) from routes whose action is not one script.
 */
/**
 * `<ms>-<seq>-<id>`: newest-first order must follow the order entries were
 * written, also when several land in one millisecond (ids are random), so a
 * sequence number within the millisecond comes before the id. One indexed read
 * of the newest entry; audit writes are rare.
 */
async function nextSortKey(tx: Tx, id: string): Promise<string> {
  const [latest] = await tx.store.audit.list({ limit: 1 });
  let ms = tx.nowMs;
  let seq = 0;
  if (latest) {
    const [latestMs, latestSeq] = latest.sortKey.split("-").map(Number);
    if (Number.isSafeInteger(latestMs) && latestMs! >= ms) {
      ms = latestMs!;
      seq = Number.isSafeInteger(latestSeq) ? latestSeq! + 1 : 1;
    }
  }
  return `${String(ms).padStart(15, "0")}-${String(seq).padStart(6, "0")}-${id}`;
}

export async function recordAudit(
  tx: Tx,
  actor: Actor,
  action: string,
  target: string,
  accountId: string | null,
  detail: Record<string, unknown> = {},
): Promise<AuditEntry> {
  let detailText = JSON.stringify(detail);
  if (detailText.length > AUDIT_DETAIL_BYTES_MAX) detailText = JSON.stringify({ truncated: detailText.slice(0, AUDIT_DETAIL_BYTES_MAX - 100) });
  const id = tx.newId("aud");
  const entry: AuditEntry = {
    id,
    sortKey: await nextSortKey(tx, id),
    atMs: tx.nowMs,
    actorKind: actor.kind,
    actorId: actor.id,
    actorLabel: actor.label,
    action,
    target,
    accountId,
    detail: detailText,
  };
  await tx.store.audit.insert(entry);
  return entry;
}

export const record = mutation(
  "audit.record",
  z.strictObject({
    actor: actorSchema,
    action: actionSchema,
    target: z.string().min(1).max(200),
    accountId: idOf("acct", "an account id").nullable(),
    detail: detailSchema,
  }),
  auditEntrySchema,
  async (tx, args) => recordAudit(tx, args.actor, args.action, args.target, args.accountId, args.detail),
);

export const list = query(
  "audit.list",
  z.strictObject({
    limit: z.number().int().min(1).max(200).default(50),
    accountId: idOf("acct", "an account id").optional(),
    before: z.string().regex(/^\d{15}-\d{6}-aud_[0-9a-z]{20}$/, "a cursor from a previous page").optional(),
  }),
  z.object({ entries: z.array(auditEntrySchema), nextBefore: z.string().nullable() }),
  async (tx, args) => {
    const options = { limit: args.limit, beforeSortKey: args.before };
    const entries = args.accountId ? await tx.store.audit.listByAccount(args.accountId, options) : await tx.store.audit.list(options);
    const last = entries.at(-1);
    return { entries, nextBefore: entries.length === args.limit && last ? last.sortKey : null };
  },
);
