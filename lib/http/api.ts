/**
 * Route-handler plumbing: one error shape `{ error: { code, message } }`,
 * one table from code to status (lib/errors.ts), operator checks, and body
 * reading with a size limit. Route handlers stay thin: parse, call, answer.
 */
import { AppError, isAppError } from "../errors";
import { authenticate, requireOperatorPrincipal, type Principal } from "./auth";
import { takeRequestBody, withText } from "./body";

export const JSON_BODY_LIMIT_BYTES = 64 * 1024;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(body);
  return withText(
    new Response(text, {
      status,
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
    }),
    text,
  );
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

export const FORM_BODY_LIMIT_BYTES = 16 * 1024;

/**
 * Reads an HTML form post (application/x-www-form-urlencoded) of at most
 * `limitBytes` into an object of strings; a field sent twice is refused, so
 * a parser never has to guess which one counts. Parse the result with zod.
 */
export async function readForm(request: Request, limitBytes = FORM_BODY_LIMIT_BYTES): Promise<Record<string, string>> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) {
    throw new AppError("unsupported_media_type", "The body must be a form (Content-Type: application/x-www-form-urlencoded).");
  }
  const fields: Record<string, string> = Object.create(null);
  for (const [name, value] of new URLSearchParams(await readText(request, limitBytes))) {
    if (Object.prototype.hasOwnProperty.call(fields, name)) throw new AppError("invalid_input", `${name.slice(0, 40)}: sent more than once`);
    fields[name] = value;
  }
  return { ...fields };
}

export async function readText(request: Request, limitBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limitBytes) throw new AppError("payload_too_large", `The body is larger than ${limitBytes} bytes.`);
  const read = takeRequestBody(request); // the direct path read it already (body.ts)
  if (read !== undefined) {
    if (read.length > limitBytes) throw new AppError("payload_too_large", `The body is larger than ${limitBytes} bytes.`);
    return read.toString("utf8");
  }
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

/**
 * Fails unless the request comes from the operator: the operator token, or an
 * operator's session. MUST be awaited (`await requireOperator(request)`); the
 * lint rule in eslint.config.mjs refuses a call whose promise is dropped.
 * Resolves to the operator principal (for audit()).
 */
export async function requireOperator(request: Request): Promise<Extract<Principal, { kind: "operator" }>> {
  const principal = await authenticate(request);
  requireOperatorPrincipal(principal);
  return principal;
}

/**
 * A state-changing request from a browser must come from this site. Requests
 * with no Origin (curl, scripts with a bearer token) are not browsers — unless
 * `strict`, used when a session cookie is what authenticates the request:
 * then the browser must show where it came from (every current browser sends
 * Origin on POST, PUT, PATCH and DELETE, and Sec-Fetch-Site on all requests).
 */
export function requireSameOrigin(request: Request, options: { strict?: boolean } = {}): void {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite !== null && fetchSite !== "same-origin" && fetchSite !== "none") {
    throw new AppError("forbidden", "Cross-site requests cannot change anything here.");
  }
  const origin = request.headers.get("origin");
  if (origin === null) {
    if (options.strict && fetchSite === null) throw new AppError("forbidden", "A signed-in change must come from this site's own pages (no Origin header was sent).");
    return;
  }
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new AppError("forbidden", "The request's Origin is not valid.");
  }
  if (originHost !== host) throw new AppError("forbidden", "Cross-site requests cannot change anything here.");
}
