/**
 * Server-component side of sessions: the guards every dashboard page, member
 * page and server action calls first.
 *  - requireOperatorSession(): operators only; a member is sent to /account,
 *    anyone else to /signin.
 *  - requireMemberSession(): account members only; an operator is sent to
 *    /app, anyone else to /signin. Its accountId is the only account a member
 *    page may read.
 * tests/api/guards.test.ts checks that every page and server action calls one.
 */
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { resolveSession, type SessionInfo } from "../auth/sessions";
import { SESSION_COOKIE } from "../ops/operator";
import type { Principal } from "./auth";

export interface OperatorSession {
  userId: string;
  email: string;
  name: string;
  /** For audit() from server actions. */
  principal: Extract<Principal, { kind: "operator" }>;
}

export interface MemberSession {
  userId: string;
  email: string;
  name: string;
  /** The one account this member may see. */
  accountId: string;
  principal: Extract<Principal, { kind: "account" }>;
}

export async function currentSession(): Promise<SessionInfo | null> {
  const jar = await cookies();
  return resolveSession(jar.get(SESSION_COOKIE)?.value);
}

export async function hasOperatorSession(): Promise<boolean> {
  return (await currentSession())?.user.role === "operator";
}

/** For dashboard pages and server actions: operators only. */
export async function requireOperatorSession(): Promise<OperatorSession> {
  const session = await currentSession();
  if (!session) redirect("/signin");
  const { user } = session;
  if (user.role !== "operator") redirect("/account");
  return { userId: user.id, email: user.email, name: user.name, principal: { kind: "operator", via: "session", userId: user.id, label: user.email } };
}

/** For member pages (/account/…) and their server actions: one account's members only. */
export async function requireMemberSession(): Promise<MemberSession> {
  const session = await currentSession();
  if (!session) redirect("/signin");
  const { user } = session;
  if (user.role !== "member" || user.accountId === null) redirect("/app");
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    accountId: user.accountId,
    principal: { kind: "account", via: "session", accountId: user.accountId, keyId: null, userId: user.id, label: user.email },
  };
}
