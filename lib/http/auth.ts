/**
 * Who is asking. An API request carries one of:
 *  - the operator token (Authorization: Bearer tb_op_…): the operator;
 *  - an account's API key (Authorization: Bearer tb_live_…): that account,
 *    within the key's request rate;
 *  - a session cookie: an operator, or a member acting for their one account.
 * Routes then scope every read and write to the principal: a key or member of
 * account A asking for anything of account B gets 404, never the data and
 * never a hint that it exists.
 */
import type { Actor } from "../audit/scripts";
import { resolveSession, cookieValue } from "../auth/sessions";
import { RateLimiter } from "../auth/rate-limit";
import { AppError } from "../errors";
import * as keys from "../keys/scripts";
import { hashApiKey, looksLikeApiKey } from "../keys/token";
import { bearerToken, checkOperatorToken, SESSION_COOKIE } from "../ops/operator";
import { getRuntime } from "../runtime";
import { requireSameOrigin } from "./api";

export type Principal =
  | { kind: "operator"; via: "token" | "session"; userId: string | null; label: string }
  | { kind: "account"; via: "key" | "session"; accountId: string; keyId: string | null; userId: string | null; label: string };

const LIMITER_KEY = Symbol.for("tollbooth.keyRateLimiter");
const TOUCHED_KEY = Symbol.for("tollbooth.keyTouchedAt");
type Holder = { [LIMITER_KEY]?: RateLimiter; [TOUCHED_KEY]?: Map<string, number> };

/** The process's rate limiter for API keys (one per process, like the runtime). */
export function keyRateLimiter(): RateLimiter {
  return ((globalThis as Holder)[LIMITER_KEY] ??= new RateLimiter());
}

function touchedAt(): Map<string, number> {
  return ((globalThis as Holder)[TOUCHED_KEY] ??= new Map());
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export async function authenticate(request: Request): Promise<Principal> {
  const { operator, engine } = getRuntime();
  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    const token = bearerToken(authorization);
    if (token && checkOperatorToken(operator, token)) return { kind: "operator", via: "token", userId: null, label: "operator token" };
    if (token && looksLikeApiKey(token)) {
      const found = await engine.run(keys.authenticate, { hash: hashApiKey(token) });
      if (found) {
        const nowMs = Date.now();
        const decision = keyRateLimiter().take(found.keyId, found.ratePerMinute, nowMs);
        if (!decision.allowed) {
          throw new AppError("rate_limited", `This API key may make ${found.ratePerMinute} requests a minute; wait ${decision.retryAfterSeconds} s.`, {
            retryAfterSeconds: decision.retryAfterSeconds,
          });
        }
        await noteKeyUse(found.keyId, found.lastUsedAtMs, nowMs);
        return { kind: "account", via: "key", accountId: found.accountId, keyId: found.keyId, userId: null, label: found.label };
      }
    }
    throw new AppError("unauthorized", "That bearer token is not a live API key or the operator token.");
  }
  const session = await resolveSession(cookieValue(request.headers.get("cookie"), SESSION_COOKIE));
  if (session) {
    // A cookie rides along on cross-site requests too; a change needs proof it came from our own pages.
    if (UNSAFE.has(request.method.toUpperCase())) requireSameOrigin(request, { strict: true });
    const { user } = session;
    if (user.role === "operator") return { kind: "operator", via: "session", userId: user.id, label: user.email };
    if (user.accountId) return { kind: "account", via: "session", accountId: user.accountId, keyId: null, userId: user.id, label: user.email };
  }
  throw new AppError("unauthorized", "Send an account API key or the operator token as Authorization: Bearer <key>, or sign in.");
}

/** last-used is written at most once a minute per key (keys.touch checks too, so several servers agree). */
async function noteKeyUse(keyId: string, lastUsedAtMs: number | null, nowMs: number): Promise<void> {
  const seen = touchedAt();
  const last = Math.max(lastUsedAtMs ?? 0, seen.get(keyId) ?? 0);
  if (nowMs - last < keys.LAST_USED_RESOLUTION_MS) return;
  seen.set(keyId, nowMs);
  if (seen.size > 100_000) seen.delete(seen.keys().next().value!);
  await getRuntime().engine.run(keys.touch, { keyId });
}

/**
 * The account a request acts for: an account key acts for its own; the operator names one.
 * A key naming another account (in a body or a query, where the id is not part of the path)
 * gets the same 404 whether that account exists or not, without the id echoed back.
 */
export function actingAccount(principal: Principal, requestedAccountId: string | null): string {
  if (principal.kind === "account") {
    if (requestedAccountId !== null && requestedAccountId !== principal.accountId) throw new AppError("not_found", "No such account.");
    return principal.accountId;
  }
  if (requestedAccountId === null) throw new AppError("invalid_input", "accountId: the operator must name the account this request is for");
  return requestedAccountId;
}

/** The account a script must scope its reads to (`asAccountId`): a key's or member's own; null for the operator. */
export function scopeOf(principal: Principal): string | null {
  return principal.kind === "account" ? principal.accountId : null;
}

/** Fails unless the principal may see rows of `ownerAccountId`; the answer is the same 404 as for a row that does not exist. */
export function assertOwns(principal: Principal, ownerAccountId: string, what: string, id: string): void {
  if (principal.kind === "account" && principal.accountId !== ownerAccountId) throw notFound(what, id);
}

export function requireOperatorPrincipal(principal: Principal): asserts principal is Extract<Principal, { kind: "operator" }> {
  if (principal.kind !== "operator") throw new AppError("forbidden", "Only an operator can do this.");
}

export function notFound(what: string, id: string): AppError {
  return new AppError("not_found", `No ${what} ${clip(id)}.`);
}

/** Ids echoed in messages are cut short: a hostile 100 kB id is not sent back whole. */
function clip(value: string): string {
  return value.length > 64 ? `${value.slice(0, 64)}…` : value;
}

/** Who did it, for the audit log. */
export function actorOf(principal: Principal): Actor {
  if (principal.kind === "operator") {
    return principal.via === "token" ? { kind: "operator_token", id: null, label: principal.label } : { kind: "operator", id: principal.userId, label: principal.label };
  }
  return principal.via === "key" ? { kind: "key", id: principal.keyId, label: principal.label } : { kind: "member", id: principal.userId, label: principal.label };
}
