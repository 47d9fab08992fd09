/**
 * Operator access until real sign-in arrives: one operator token, made on
 * first start, printed once and kept in the data folder readable only by its
 * owner. The dashboard trades it for a signed session cookie; the admin API
 * and the load scripts send it as a bearer token.
 */
import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { constantTimeEqual } from "../security";

export const OPERATOR_TOKEN_FILE = "operator-token";
const SESSION_SECRET_FILE = "session-secret";
export const SESSION_COOKIE = "tollbooth_session";
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export interface OperatorSecrets {
  token: string;
  sessionSecret: string;
  /** True when this start made the token (so it is printed once). */
  created: boolean;
}

function readOrCreate(file: string, make: () => string): { value: string; created: boolean } {
  try {
    const fd = fs.openSync(file, "wx", 0o600);
    const value = make();
    fs.writeSync(fd, value);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    return { value, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const value = fs.readFileSync(file, "utf8").trim();
    if (value.length < 32) throw new Error(`${file} is damaged (shorter than 32 characters); delete it to make a new one.`);
    return { value, created: false };
  }
}

export function loadOperatorSecrets(dataDir: string, override: string | null = null): OperatorSecrets {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const token = readOrCreate(path.join(dataDir, OPERATOR_TOKEN_FILE), () => `tb_op_${randomBytes(24).toString("base64url")}`);
  const secret = readOrCreate(path.join(dataDir, SESSION_SECRET_FILE), () => randomBytes(32).toString("base64url"));
  return { token: override ?? token.value, sessionSecret: secret.value, created: token.created && override === null };
}

export function checkOperatorToken(secrets: OperatorSecrets, given: string | null | undefined): boolean {
  return typeof given === "string" && constantTimeEqual(given, secrets.token);
}

/** `v1.<expiresAtMs>.<hmac>`: nothing secret inside, tamper-evident, expires on its own. */
export function makeSessionCookie(secrets: OperatorSecrets, nowMs: number): { value: string; expiresAtMs: number } {
  const expiresAtMs = nowMs + SESSION_TTL_MS;
  const body = `v1.${expiresAtMs}`;
  return { value: `${body}.${sign(secrets.sessionSecret, body)}`, expiresAtMs };
}

export function checkSessionCookie(secrets: OperatorSecrets, value: string | undefined, nowMs: number): boolean {
  if (!value) return false;
  const parts = value.split(".");
  if (parts.length !== 3 || parts[0] !== "v1") return false;
  const expiresAtMs = Number(parts[1]);
  if (!Number.isSafeInteger(expiresAtMs) || expiresAtMs <= nowMs) return false;
  return constantTimeEqual(parts[2]!, sign(secrets.sessionSecret, `v1.${parts[1]}`));
}

function sign(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body).digest("base64url");
}

/** Reads `Authorization: Bearer <token>`. */
export function bearerToken(header: string | null): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  return match ? match[1]! : null;
}
