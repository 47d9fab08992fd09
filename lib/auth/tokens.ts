/**
 * Tokens that prove something: session cookies, invite links, the setup
 * token. Each is 32 random bytes; only its SHA-256 is stored, so a copy of the
 * database opens nothing. Session cookies are also HMAC-signed with the
 * server's session secret, so a forged cookie is refused without a lookup.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { constantTimeEqual } from "../security";

export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

function mac(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body).digest("base64url");
}

const COOKIE_VERSION = "v2";

/** `v2.<token>.<hmac>`: the token finds the server-side session; the HMAC proves we made it. */
export function signSessionToken(secret: string, token: string): string {
  return `${COOKIE_VERSION}.${token}.${mac(secret, `${COOKIE_VERSION}.${token}`)}`;
}

/** The token inside a cookie we signed, or null for anything else (tampered, truncated, other version). */
export function readSessionCookie(secret: string, value: string | undefined | null): string | null {
  if (!value || value.length > 200) return null;
  const parts = value.split(".");
  if (parts.length !== 3 || parts[0] !== COOKIE_VERSION || !/^[A-Za-z0-9_-]{43}$/.test(parts[1]!)) return null;
  return constantTimeEqual(parts[2]!, mac(secret, `${COOKIE_VERSION}.${parts[1]}`)) ? parts[1]! : null;
}

/** A short-lived signed note carried through a redirect (Kinde sign-in): `<payload b64url>.<expiresAtMs>.<hmac>`. */
export function signNote(secret: string, payload: string, expiresAtMs: number): string {
  const body = `${Buffer.from(payload).toString("base64url")}.${expiresAtMs}`;
  return `${body}.${mac(secret, `note.${body}`)}`;
}

export function readNote(secret: string, value: string | undefined | null, nowMs: number): string | null {
  if (!value || value.length > 2000) return null;
  const parts = value.split(".");
  if (parts.length !== 3) return null;
  const expiresAtMs = Number(parts[1]);
  if (!Number.isSafeInteger(expiresAtMs) || expiresAtMs <= nowMs) return null;
  if (!constantTimeEqual(parts[2]!, mac(secret, `note.${parts[0]}.${parts[1]}`))) return null;
  return Buffer.from(parts[0]!, "base64url").toString("utf8");
}
