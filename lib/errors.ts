/**
 * One table from error code to HTTP status. Expected outcomes (a refused job,
 * an ignored event) are returned values, not errors; these are for bad input at
 * a boundary and for requests that cannot be served.
 */
export const ERROR_STATUS = {
  invalid_input: 400,
  unauthorized: 401,
  limit_exceeded: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  limit_unavailable: 503,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Extra fields that go into the error body, e.g. { remaining }. */
  readonly details: Record<string, unknown> | undefined;
  /** Seconds a client should wait before trying again (Retry-After). */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, options?: { details?: Record<string, unknown>; retryAfterSeconds?: number }) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.details = options?.details;
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): { error: { code: ErrorCode; message: string } & Record<string, unknown> } {
    return { error: { code: this.code, message: this.message, ...this.details } };
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError || (typeof value === "object" && value !== null && (value as { name?: unknown }).name === "AppError" && typeof (value as { code?: unknown }).code === "string" && (value as { code: string }).code in ERROR_STATUS);
}

/** An invariant the code relies on. A failure is a bug, never an expected outcome. */
export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`Invariant broken: ${message}`);
}
