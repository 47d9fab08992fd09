/**
 * Sessions on the server side. The cookie holds `v2.<token>.<hmac>`
 * (lib/auth/tokens.ts); the sessions table holds the token's SHA-256, the
 * person and the expiry. A session works while its row exists, has not ended
 * (sign-out), has not expired, and its person is not disabled — so sign-out,
 * expiry and disabling take effect at once, on every server.
 */
import { SESSION_COOKIE, SESSION_TTL_MS } from "../ops/operator";
import * as people from "../people/scripts";
import { getRuntime } from "../runtime";
import { newToken, readSessionCookie, sha256Hex, signSessionToken } from "./tokens";

export type SessionInfo = NonNullable<Awaited<ReturnType<typeof lookup>>>;

export interface NewSession {
  cookieValue: string;
  /** What the session row stores. */
  session: { tokenHash: string; expiresAtMs: number };
}

export function newSession(nowMs: number): NewSession {
  const token = newToken();
  return {
    cookieValue: signSessionToken(getRuntime().operator.sessionSecret, token),
    session: { tokenHash: sha256Hex(token), expiresAtMs: nowMs + SESSION_TTL_MS },
  };
}

async function lookup(tokenHash: string) {
  return getRuntime().engine.run(people.sessionByToken, { tokenHash });
}

/** The live session behind a cookie value, or null. A forged or tampered cookie is refused before any lookup. */
export async function resolveSession(cookieValue: string | undefined | null): Promise<SessionInfo | null> {
  const token = readSessionCookie(getRuntime().operator.sessionSecret, cookieValue);
  if (!token) return null;
  const found = await lookup(sha256Hex(token));
  // The engine checks expiry by its own clock (Convex's, on Convex); this checks it by ours too.
  return found && found.expiresAtMs > Date.now() ? found : null;
}

/** Ends the session behind a cookie value (sign-out); a cookie that is not ours ends nothing. */
export async function endSession(cookieValue: string | undefined | null): Promise<void> {
  const token = readSessionCookie(getRuntime().operator.sessionSecret, cookieValue);
  if (token) await getRuntime().engine.run(people.endSession, { tokenHash: sha256Hex(token) });
}

/** The Set-Cookie header: httpOnly, SameSite=Lax, Path=/, Secure over https, with an expiry. */
export function sessionCookieHeader(value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}${secure ? "; Secure" : ""}`;
}

export function clearSessionCookieHeader(secure: boolean): string {
  return sessionCookieHeader("", 0, secure);
}

export function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}

/** Whether the request reached us over https (directly or, behind a proxy, as it says). */
export function isSecureRequest(request: Request): boolean {
  const forwarded = request.headers.get("x-forwarded-proto");
  return (forwarded ?? new URL(request.url).protocol.replace(":", "")) === "https";
}

/** A signed-in answer: 303 to `location` with the session cookie set. */
export function signedInResponse(request: Request, cookie: NewSession, location: string): Response {
  return new Response(null, {
    status: 303,
    headers: {
      location,
      "set-cookie": sessionCookieHeader(cookie.cookieValue, SESSION_TTL_MS / 1000, isSecureRequest(request)),
    },
  });
}

/** Where a person lands after signing in. */
export function homeOf(role: "operator" | "member"): string {
  return role === "operator" ? "/app" : "/account";
}
