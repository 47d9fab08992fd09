/**
 * Password hashing with scrypt from node:crypto.
 *
 * Parameters: N = 2^15 (cost), r = 8 (block size), p = 1 (parallelism), a
 * 16-byte random salt, a 32-byte derived key. That takes 128·N·r = 32 MiB of
 * memory and roughly 50–100 ms of one core per hash on the CI machine: slow
 * enough that a stolen table costs an attacker that much per guess per
 * person, fast enough for a sign-in form. (RFC 7914 suggests N = 2^14 for
 * interactive logins in 2009; OWASP's current floor is N = 2^17 with r = 8 at
 * 128 MiB — we chose 2^15 to keep memory modest beside SQLite on a small box,
 * and because each hash records its parameters, raising them later re-hashes
 * each password at its next sign-in.)
 *
 * Stored form: `scrypt$<N>$<r>$<p>$<salt b64url>$<key b64url>`.
 * Comparison is constant-time (crypto.timingSafeEqual).
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

export const SCRYPT_PARAMS: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };
export const SALT_BYTES = 16;
export const KEY_BYTES = 32;
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 200;

function scrypt(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize("NFKC"), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string, params: ScryptParams = SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

export function parseHash(stored: string): { params: ScryptParams; salt: Buffer; key: Buffer } | null {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  // Bounds keep a damaged or planted row from making one check take minutes or gigabytes.
  if (![N, r, p].every(Number.isSafeInteger) || N < 2 || N > 2 ** 20 || (N & (N - 1)) !== 0 || r < 1 || r > 32 || p < 1 || p > 16) return null;
  return { params: { N, r, p }, salt: Buffer.from(parts[4]!, "base64url"), key: Buffer.from(parts[5]!, "base64url") };
}

/** True when `password` matches `stored`. A malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed || parsed.key.length !== KEY_BYTES) return false;
  const key = await scrypt(password, parsed.salt, parsed.params);
  return timingSafeEqual(key, parsed.key);
}

/** A hash made with weaker parameters than today's should be replaced at the next sign-in. */
export function needsRehash(stored: string, params: ScryptParams = SCRYPT_PARAMS): boolean {
  const parsed = parseHash(stored);
  return !parsed || parsed.params.N < params.N || parsed.params.r < params.r || parsed.params.p < params.p;
}

let dummy: Promise<string> | null = null;
/**
 * Spends the time of one real check when there is no one to check against, so
 * the answer's timing does not tell whether an email signs in here.
 */
export async function burnPasswordCheck(password: string): Promise<false> {
  dummy ??= hashPassword("not a real password, only a timing stand-in");
  await verifyPassword(password, await dummy);
  return false;
}
