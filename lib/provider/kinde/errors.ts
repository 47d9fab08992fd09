/**
 * Kinde's HTTP answers → ProviderError, in one place. Nothing here ever puts
 * a secret or a token into a message.
 */
import { ProviderError, type ProviderErrorKind } from "../port";

/** What a Kinde call is, for messages and for what a failure means. */
export interface KindeOperation {
  label: string;
  /** The M2M scope it needs (named in a 403). */
  scope: string | null;
  /** What a timeout or a dropped connection means: a read cannot say; a write may be retried (it is absolute). */
  failureKind: Extract<ProviderErrorKind, "unreadable" | "retry_later">;
  /** What a 404 or 405 means: nothing there, or (for the unpublished meter read) no such endpoint. */
  missingKind: Extract<ProviderErrorKind, "not_found" | "unreadable">;
}

export const OPERATIONS = {
  token: { label: "getting an M2M token", scope: null, failureKind: "retry_later", missingKind: "not_found" },
  entitlements: { label: "reading billing entitlements", scope: "read:billing_entitlements", failureKind: "unreadable", missingKind: "not_found" },
  agreements: { label: "reading billing agreements", scope: "read:billing_agreements", failureKind: "unreadable", missingKind: "not_found" },
  meterWrite: { label: "writing meter usage", scope: "create:meter_usage", failureKind: "retry_later", missingKind: "not_found" },
  meterRead: { label: "reading meter usage", scope: "read:meter_usage", failureKind: "unreadable", missingKind: "unreadable" },
} as const satisfies Record<string, KindeOperation>;

/** When RateLimit-Reset is missing or unreadable, wait this long. */
export const DEFAULT_RETRY_AFTER_MS = 1_000;

/** RateLimit-Reset is "seconds until the limit resets" (Kinde's API rate limits page). */
export function retryAfterMsOf(headers: Headers): number {
  const raw = headers.get("ratelimit-reset");
  if (raw === null || !/^\d+(\.\d+)?$/.test(raw.trim())) return DEFAULT_RETRY_AFTER_MS;
  return Math.max(0, Math.ceil(Number(raw) * 1000));
}

/** Kinde's error bodies: `{ errors: [ { code, message } ] }`, or one object for a 404. Never more than 200 characters. */
export function kindeErrorText(body: unknown): string {
  if (typeof body !== "object" || body === null) return "";
  const errorsField = (body as { errors?: unknown }).errors;
  const first = Array.isArray(errorsField) ? errorsField[0] : errorsField;
  if (typeof first === "object" && first !== null) {
    const { code, message } = first as { code?: unknown; message?: unknown };
    return [code, message].filter((p) => typeof p === "string" && p.length > 0).join(": ").slice(0, 200);
  }
  const { error, error_description } = body as { error?: unknown; error_description?: unknown };
  return [error, error_description].filter((p) => typeof p === "string" && p.length > 0).join(": ").slice(0, 200);
}

export function statusError(operation: KindeOperation, status: number, headers: Headers, body: unknown): ProviderError {
  const said = kindeErrorText(body);
  const suffix = said ? ` Kinde said: ${said}.` : "";
  if (status === 429) {
    const retryAfterMs = retryAfterMsOf(headers);
    return new ProviderError("retry_later", `Kinde throttled ${operation.label} (429); RateLimit-Reset: ${retryAfterMs / 1000} s.`, retryAfterMs);
  }
  if (status === 403) {
    const scope = operation.scope;
    return new ProviderError(
      "not_allowed",
      scope
        ? `Kinde refused ${operation.label} (403): the M2M application needs the scope ${scope}.${suffix}`
        : `Kinde refused ${operation.label} (403).${suffix}`,
      undefined,
      scope ? { scope } : undefined,
    );
  }
  if (status === 401) return new ProviderError("not_allowed", `Kinde refused the M2M token while ${operation.label} (401), even after a new one.${suffix}`);
  if (status === 404 || status === 405) {
    return operation.missingKind === "unreadable"
      ? new ProviderError("unreadable", `Kinde has nothing to answer ${operation.label} at this path (${status}); see KINDE_METER_READ_PATH.${suffix}`)
      : new ProviderError("not_found", `Kinde found nothing while ${operation.label} (${status}).${suffix}`);
  }
  if (status >= 500) return new ProviderError("retry_later", `Kinde failed while ${operation.label} (${status}).${suffix}`);
  return new ProviderError("rejected", `Kinde rejected the request while ${operation.label} (${status}).${suffix}`);
}

export function transportError(operation: KindeOperation, error: unknown, timeoutMs: number): ProviderError {
  const name = (error as { name?: unknown } | null)?.name;
  const what = name === "TimeoutError" || name === "AbortError" ? `no answer within ${timeoutMs} ms` : "the connection failed";
  return new ProviderError(operation.failureKind, `Kinde did not answer while ${operation.label}: ${what}.`);
}
