/**
 * audit(principal, action, target, detail): the one call a route or server
 * action makes after an operator action succeeds (a replay, a fault switch, a
 * reconcile, a correction…).
 *
 *   const principal = await requireOperator(request);
 *   const result = await engine.run(inbox.replay, { eventId });
 *   await audit(principal, "inbox.replay", eventId, { accountId: result.accountId });
 *
 * `action` is dotted (`<part>.<verb>`); `target` is the id acted on; `detail`
 * is a small JSON object (≤ 4 KiB, never a secret or a token). The row's
 * account is `target` when it is an account id, else `detail.accountId`, else
 * the principal's own account (members and keys).
 *
 * audit() is its own transaction, written after the action: a crash between
 * the two loses the line. Where that matters, write the line inside the
 * action's own script with recordAudit(tx, actor, …) (lib/audit/scripts.ts),
 * as keys.create/revoke and accounts.update do; actorOf(principal) gives the
 * actor to pass in.
 */
import { actorOf, type Principal } from "../http/auth";
import { getRuntime } from "../runtime";
import * as auditScripts from "./scripts";

const ACCOUNT_ID = /^acct_[0-9a-z]{20}$/;

export async function audit(principal: Principal, action: string, target: string, detail: Record<string, unknown> = {}): Promise<void> {
  const fromDetail = typeof detail.accountId === "string" && ACCOUNT_ID.test(detail.accountId) ? detail.accountId : null;
  const accountId = ACCOUNT_ID.test(target) ? target : (fromDetail ?? (principal.kind === "account" ? principal.accountId : null));
  await getRuntime().engine.run(auditScripts.record, { actor: actorOf(principal), action, target: target.slice(0, 200), accountId, detail });
}
