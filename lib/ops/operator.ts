/**
 * The server's own secrets, kept in the data folder readable only by its owner:
 *  - the operator token (`tb_op_…`), made on first start and printed once: the
 *    admin API and the load scripts send it as a bearer token;
 *  - the session secret that signs session cookies (lib/auth/tokens.ts);
 *  - the one-time setup token that unlocks the first-run page (/setup), where
 *    the first operator is made. It is deleted once used; the database's setup
 *    row is what makes it work only once.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { constantTimeEqual } from "../security";

export const OPERATOR_TOKEN_FILE = "operator-token";
const SESSION_SECRET_FILE = "session-secret";
export const SETUP_TOKEN_FILE = "setup-token";
const SETUP_USED_FILE = "setup-used";
export const SESSION_COOKIE = "tollbooth_session";
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export interface OperatorSecrets {
  token: string;
  sessionSecret: string;
  /** True when this start made the token (so it is printed once). */
  created: boolean;
  /** The file holding the first-run setup token. */
  setupTokenFile: string;
  /** The setup token when this start made it (so it is printed once); null otherwise. */
  createdSetupToken: string | null;
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

export function loadOperatorSecrets(dataDir: string, override: string | null = null, sessionSecretOverride: string | null = null): OperatorSecrets {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const token = readOrCreate(path.join(dataDir, OPERATOR_TOKEN_FILE), () => `tb_op_${randomBytes(24).toString("base64url")}`);
  const secret = readOrCreate(path.join(dataDir, SESSION_SECRET_FILE), () => randomBytes(32).toString("base64url"));
  const setupTokenFile = path.join(dataDir, SETUP_TOKEN_FILE);
  // Made until the first-run setup is used (then a marker file stays). The database's setup row is
  // the real once-only guard: a token left behind after setup opens nothing.
  const used = fs.existsSync(path.join(dataDir, SETUP_USED_FILE));
  const setup = used ? null : readOrCreate(setupTokenFile, () => `tb_setup_${randomBytes(24).toString("base64url")}`);
  return {
    token: override ?? token.value,
    sessionSecret: sessionSecretOverride ?? secret.value,
    created: token.created && override === null,
    setupTokenFile,
    createdSetupToken: setup?.created ? setup.value : null,
  };
}

/** The setup token while the first-run page is open, or null once it was used (its file is gone). */
export function readSetupToken(secrets: OperatorSecrets): string | null {
  try {
    const value = fs.readFileSync(secrets.setupTokenFile, "utf8").trim();
    return value.length >= 32 ? value : null;
  } catch {
    return null;
  }
}

export function checkSetupToken(secrets: OperatorSecrets, given: string | null | undefined): boolean {
  const expected = readSetupToken(secrets);
  return expected !== null && typeof given === "string" && constantTimeEqual(given, expected);
}

/** After the first operator is made: the token is spent. */
export function discardSetupToken(secrets: OperatorSecrets): void {
  fs.writeFileSync(path.join(path.dirname(secrets.setupTokenFile), SETUP_USED_FILE), `${new Date().toISOString()}\n`, { mode: 0o600 });
  fs.rmSync(secrets.setupTokenFile, { force: true });
}

export function checkOperatorToken(secrets: OperatorSecrets, given: string | null | undefined): boolean {
  return typeof given === "string" && constantTimeEqual(given, secrets.token);
}

/** Reads `Authorization: Bearer <token>`. */
export function bearerToken(header: string | null): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  return match ? match[1]! : null;
}
