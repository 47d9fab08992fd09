/**
 * Route-handler plumbing: one error shape `{ error: { code, message } }`,
 * one table from code to status (lib/errors.ts), operator checks, and body
 * reading with a size limit. Route handlers stay thin: parse, call, answer.
 */
import { AppError, isAppError } from "../errors";
import { bearerToken, checkOperatorToken, checkSessionCookie, SESSION_COOKIE } from "../ops/operator";
import { getRuntime } from "../runtime";

export const JSON_BODY_LIMIT_BYTES = 64 * 1024;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

export function errorResponse(error: unknown): Response {
  if (isAppError(error)) {
    const headers: Record<string, string> = {};
    if (error.retryAfterSeconds !== undefined) headers["retry-after"] = String(Math.max(1, Math.ceil(error.retryAfterSeconds)));
    return json(error.toBody(), error.status, headers);
  }
  // Unexpected: logged for the operator, never echoed to the caller.
  console.error("[tollbooth] unexpected error", error);
  return json({ error: { code: "internal", message: "Something went wrong on our side; nothing was changed by this request." } }, 500);
}

/** Wraps a route handler so every thrown error becomes the one error shape. */
export function route<C>(handler: (request: Request, context: C) => Promise<Response>) {
  return async (request: Request, context: C): Promise<Response> => {
    try {
      return await handler(request, context);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/** Reads a JSON body of at most `limitBytes`; anything else is a clear 4xx. */
export async function readJson(request: Request, limitBytes = JSON_BODY_LIMIT_BYTES): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) throw new AppError("unsupported_media_type", "The body must be JSON (Content-Type: application/json).");
  const text = await readText(request, limitBytes);
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("invalid_input", "The body is not valid JSON.");
  }
}

export async function readText(request: Request, limitBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limitBytes) throw new AppError("payload_too_large", `The body is larger than ${limitBytes} bytes.`);
  const reader = request.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel();
      throw new AppError("payload_too_large", `The body is larger than ${limitBytes} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}

/** An operator is a bearer of the operator token, or a browser with a valid operator session. */
export function isOperatorRequest(request: Request): boolean {
  const { operator } = getRuntime();
  if (checkOperatorToken(operator, bearerToken(request.headers.get("authorization")))) return true;
  return checkSessionCookie(operator, cookieValue(request.headers.get("cookie"), SESSION_COOKIE), Date.now());
}

export function requireOperator(request: Request): void {
  if (!isOperatorRequest(request)) throw new AppError("unauthorized", "This needs the operator token (Authorization: Bearer …) or an operator session.");
}

/**
 * A state-changing request from a browser must come from this site. Requests
 * with no Origin (curl, scripts with a bearer token) are not browsers.
 */
export function requireSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  if (origin === null) return;
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new AppError("forbidden", "The request's Origin is not valid.");
  }
  if (originHost !== host) throw new AppError("forbidden", "Cross-site requests cannot change anything here.");
}
