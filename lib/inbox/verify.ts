/**
 * Webhook verification (Part C, rule 1): the body is one JWT signed RS256 by
 * a key in the provider's key set. Anything else is refused before a row is
 * written: other algorithms (none, HMAC with the public key as secret),
 * unknown keys, bad signatures, malformed tokens, expired tokens, and — the
 * replay protection Part C left out — events older than the configured window.
 */
import { errors, jwtVerify, type JWTVerifyGetKey } from "jose";
import { z } from "zod";
import { AppError } from "../errors";
import { eventTimeOf } from "./decide";

export const WEBHOOK_ALGORITHMS = ["RS256"];
/** An event dated further ahead than this would win every later time comparison: refused. */
export const FUTURE_SKEW_MS = 5 * 60_000;

const kindeEvent = z.object({
  type: z.string().min(1).max(100),
  event_id: z.string().min(1).max(200).optional(),
  timestamp: z.union([z.string(), z.number()]).optional(),
  event_timestamp: z.union([z.string(), z.number()]).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

export interface VerifiedEvent {
  type: string;
  eventId: string | null;
  occurredAtMs: number;
  /** The verified claims. */
  claims: Record<string, unknown>;
}

export interface VerifyOptions {
  keys: JWTVerifyGetKey;
  nowMs: number;
  maxAgeMs: number;
}

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Why jose refused a token, in words; null when the failure is not the token's fault. */
function refusal(error: unknown): string | null {
  if (error instanceof errors.JOSEAlgNotAllowed) return "it is not signed with RS256 (only RS256 is accepted)";
  if (error instanceof errors.JWKSNoMatchingKey) return "its key (kid) is not in the provider's key set";
  if (error instanceof errors.JWKSMultipleMatchingKeys) return "its key (kid) matches more than one key in the key set";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "its signature does not match";
  if (error instanceof errors.JWTExpired) return "it has expired (exp)";
  if (error instanceof errors.JWTClaimValidationFailed) return `its claims are not valid (${error.claim})`;
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid || error instanceof errors.JOSENotSupported) return "it is not a valid JWT";
  if (error instanceof TypeError) return "it is not a valid JWT";
  return null;
}

export async function verifyWebhookToken(token: string, options: VerifyOptions): Promise<VerifiedEvent> {
  const compact = token.trim();
  if (!COMPACT_JWS.test(compact)) throw new AppError("unauthorized", "The webhook was refused: the body is not a JWT.");
  let claims: Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(compact, options.keys, { algorithms: WEBHOOK_ALGORITHMS, currentDate: new Date(options.nowMs) }));
  } catch (error) {
    const reason = refusal(error);
    if (reason === null) {
      // The key set could not be read (network, timeout): not the sender's fault, and nothing was stored; Kinde retries.
      throw new AppError("unavailable", `The webhook could not be verified now: the key set could not be read (${(error as Error).message}).`, { retryAfterSeconds: 5 });
    }
    throw new AppError("unauthorized", `The webhook was refused: ${reason}.`);
  }
  const parsed = kindeEvent.safeParse(claims);
  if (!parsed.success) {
    // Name each claim that is wrong, as every other 400 names its field.
    const problems = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.map(String).join(".") || "claims"}: ${issue.message}`);
    throw new AppError("invalid_input", `The webhook's token is signed but is not a Kinde event (it needs a type, a timestamp and an object of data): ${problems.join("; ")}.`);
  }
  const occurredAtMs = eventTimeOf(parsed.data);
  if (occurredAtMs === null) throw new AppError("invalid_input", "The webhook's event has no usable time (event_timestamp or timestamp, RFC 3339).");
  const ageMs = options.nowMs - occurredAtMs;
  if (ageMs > options.maxAgeMs) {
    throw new AppError(
      "unauthorized",
      `The webhook was refused: its event time ${new Date(occurredAtMs).toISOString()} is older than the replay window of ${Math.round(options.maxAgeMs / 3_600_000)} hours.`,
    );
  }
  if (-ageMs > FUTURE_SKEW_MS) throw new AppError("unauthorized", `The webhook was refused: its event time ${new Date(occurredAtMs).toISOString()} is in the future.`);
  return { type: parsed.data.type, eventId: parsed.data.event_id ?? null, occurredAtMs, claims };
}
