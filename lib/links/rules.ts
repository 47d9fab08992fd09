/**
 * What a short link may be: its code and its destination. Pure; used by the
 * links.create script (the one place the rules are enforced) and by forms
 * that want to say what is wrong before they submit.
 */

/** Generated codes: no 0/O, 1/l/I, so a code read off a poster survives. */
export const CODE_ALPHABET = "23456789abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ";
/** 56^7 ≈ 1.7 × 10^12 codes: a collision is rare, and each is checked. */
export const GENERATED_CODE_LENGTH = 7;
export const CUSTOM_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{2,31}$/;
export const CUSTOM_CODE_RULE = "3 to 32 letters, digits, '-' or '_', starting with a letter or digit";
/** Any code the redirect route will look up: a generated or a custom one. */
export const ANY_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;
export const DESTINATION_LENGTH_MAX = 2048;
/** The app's short-link path; a destination on the app itself under it would loop. */
export const SHORT_LINK_PATH = "/r/";

export function generateCode(random: () => number): string {
  let code = "";
  for (let i = 0; i < GENERATED_CODE_LENGTH; i++) code += CODE_ALPHABET[Math.floor(random() * CODE_ALPHABET.length)];
  return code;
}

export function codeProblem(code: string): string | null {
  return CUSTOM_CODE_PATTERN.test(code) ? null : `a code must be ${CUSTOM_CODE_RULE}`;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "0.0.0.0"]);

/**
 * Why a destination is not allowed, or null. It must be an absolute http(s)
 * URL of at most 2,048 characters, with no user name or password in it, and
 * never the app's own short-link path (on one of `selfHosts`, or on a
 * loopback name), which would send a visitor round in circles.
 */
export function destinationProblem(destination: string, selfHosts: readonly string[] = []): string | null {
  if (destination.length > DESTINATION_LENGTH_MAX) return `a destination has at most ${DESTINATION_LENGTH_MAX} characters`;
  if (destination !== destination.trim() || /[\u0000-\u001f\u007f\s]/.test(destination)) return "a destination has no spaces or control characters";
  let url: URL;
  try {
    url = new URL(destination);
  } catch {
    return "a destination must be an absolute URL such as https://example.com/page";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "a destination must start with http:// or https://";
  if (!url.hostname) return "a destination must name a host";
  if (url.username || url.password) return "a destination must not carry a user name or password";
  const host = url.host.toLowerCase();
  const self = selfHosts.some((h) => h.toLowerCase() === host) || LOOPBACK_HOSTS.has(url.hostname.toLowerCase());
  if (self && url.pathname.startsWith(SHORT_LINK_PATH)) return "a destination cannot be one of this app's own short links";
  return null;
}

/** "YYYY-MM-DD" of a moment, in UTC. */
export function utcDay(atMs: number): string {
  return new Date(atMs).toISOString().slice(0, 10);
}
