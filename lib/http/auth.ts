/**
 * Who is asking. An API request carries either the operator token (or an
 * operator session cookie) or one account's API key. Routes then scope every
 * read and write to the principal: a key of account A asking for anything of
 * account B gets 404, never the data and never a hint that it exists.
 */
import { AppError } from "../errors";
import * as keys from "../keys/scripts";
import { hashApiKey, looksLikeApiKey } from "../keys/token";
import { bearerToken } from "../ops/operator";
import { getRuntime } from "../runtime";
import { isOperatorRequest } from "./api";

export type Principal = { kind: "operator" } | { kind: "account"; accountId: string; keyId: string };

export async function authenticate(request: Request): Promise<Principal> {
  if (isOperatorRequest(request)) return { kind: "operator" };
  const token = bearerToken(request.headers.get("authorization"));
  if (token && looksLikeApiKey(token)) {
    const found = await getRuntime().engine.run(keys.authenticate, { hash: hashApiKey(token) });
    if (found) return { kind: "account", accountId: found.accountId, keyId: found.keyId };
  }
  throw new AppError("unauthorized", "Send an account API key or the operator token as Authorization: Bearer <key>.");
}

/** The account a request acts for: an account key acts for its own; the operator names one. */
export function actingAccount(principal: Principal, requestedAccountId: string | null): string {
  if (principal.kind === "account") {
    if (requestedAccountId !== null && requestedAccountId !== principal.accountId) throw notFound("account", requestedAccountId);
    return principal.accountId;
  }
  if (requestedAccountId === null) throw new AppError("invalid_input", "accountId: the operator must name the account this request is for");
  return requestedAccountId;
}

/** Fails unless the principal may see rows of `ownerAccountId`; the answer is the same 404 as for a row that does not exist. */
export function assertOwns(principal: Principal, ownerAccountId: string, what: string, id: string): void {
  if (principal.kind === "account" && principal.accountId !== ownerAccountId) throw notFound(what, id);
}

export function requireOperatorPrincipal(principal: Principal): void {
  if (principal.kind !== "operator") throw new AppError("forbidden", "Only an operator can do this.");
}

export function notFound(what: string, id: string): AppError {
  return new AppError("not_found", `No ${what} ${id}.`);
}
