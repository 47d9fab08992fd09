/**
 * Operators signing in with Kinde (TOLLBOOTH_OPERATOR_SIGNIN=kinde, or
 * TOLLBOOTH_PROVIDER=kinde with KINDE_CLIENT_ID, KINDE_CLIENT_SECRET,
 * KINDE_ISSUER_URL and KINDE_SITE_URL set).
 *
 * Kinde only says who someone is. @kinde-oss/kinde-auth-nextjs runs the OAuth
 * flow at /api/auth/<login|logout|kinde_callback> and then sends the browser
 * to /api/session/kinde, which maps the Kinde user to an operator here and
 * starts the same server-side session a password sign-in starts. Who may be
 * an operator is decided here, never by Kinde:
 *  - a Kinde user already linked to an operator signs in;
 *  - the first operator: /setup checks the setup token, then sends them to
 *    Kinde with a signed, 10-minute note saying "setup"; the Kinde user that
 *    comes back becomes the first operator (once);
 *  - further operators: an operator invite link, then Kinde, the same way.
 * Anyone else who signs in at Kinde gets "not an operator here".
 */
import { newSession } from "./sessions";
import { readNote, sha256Hex, signNote } from "./tokens";

export const PENDING_COOKIE = "tollbooth_pending";
export const PENDING_TTL_MS = 10 * 60 * 1000;

export type Pending = { kind: "setup" } | { kind: "invite"; token: string };

export function pendingCookieHeader(secret: string, pending: Pending, nowMs: number, secure: boolean): string {
  const value = signNote(secret, JSON.stringify(pending), nowMs + PENDING_TTL_MS);
  return `${PENDING_COOKIE}=${value}; Path=/api/session/kinde; HttpOnly; SameSite=Lax; Max-Age=${PENDING_TTL_MS / 1000}${secure ? "; Secure" : ""}`;
}

export function readPending(secret: string, value: string | undefined, nowMs: number): Pending | null {
  const text = readNote(secret, value, nowMs);
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as Pending;
    if (parsed.kind === "setup") return { kind: "setup" };
    if (parsed.kind === "invite" && typeof parsed.token === "string") return { kind: "invite", token: parsed.token };
  } catch {
    // a note we signed is always JSON; anything else is ignored
  }
  return null;
}

export interface KindeIdentity {
  id: string;
  email: string | null;
  name: string;
}

export type KindeDecision =
  | { action: "sign_in"; userId: string }
  | { action: "setup" }
  | { action: "accept_invite"; inviteTokenHash: string }
  | { action: "refuse"; reason: "disabled" | "not_operator" | "no_email" };

/** What a Kinde sign-in leads to, from who came back and what note they carried. Pure. */
export function decideKindeSignIn(
  identity: KindeIdentity,
  existing: { id: string; role: "operator" | "member"; disabledAtMs: number | null } | null,
  pending: Pending | null,
): KindeDecision {
  if (existing) {
    if (existing.disabledAtMs !== null) return { action: "refuse", reason: "disabled" };
    return existing.role === "operator" ? { action: "sign_in", userId: existing.id } : { action: "refuse", reason: "not_operator" };
  }
  if (pending?.kind === "setup") return identity.email ? { action: "setup" } : { action: "refuse", reason: "no_email" };
  if (pending?.kind === "invite") return { action: "accept_invite", inviteTokenHash: sha256Hex(pending.token) };
  return { action: "refuse", reason: "not_operator" };
}

export { newSession };

/**
 * Where the SDK sends people after Kinde: our return route, unless set. Call
 * before the SDK is first imported (it may read its settings then).
 */
export function prepareKindeEnv(): void {
  process.env.KINDE_POST_LOGIN_REDIRECT_URL ??= `${process.env.KINDE_SITE_URL}/api/session/kinde`;
  process.env.KINDE_POST_LOGOUT_REDIRECT_URL ??= `${process.env.KINDE_SITE_URL}/signin`;
}
