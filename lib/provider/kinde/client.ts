/**
 * One HTTP call to Kinde's Management API: a bearer token from the shared
 * M2M source, a timeout on every request, one renewal on a 401, and a pause
 * after a 429: until RateLimit-Reset has passed, calls fail at once with
 * retry_later instead of spending another request.
 */
import { ProviderError } from "../port";
import { statusError, transportError, type KindeOperation } from "./errors";
import type { M2MTokenSource } from "./token";

export interface KindeClientOptions {
  domain: string;
  timeoutMs: number;
  tokens: M2MTokenSource;
  fetch?: typeof fetch;
  nowMs?: () => number;
}

export interface KindeRequest {
  method: "GET" | "POST";
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
}

export class KindeClient {
  private readonly fetchImpl: typeof fetch;
  private readonly nowMs: () => number;
  private throttledUntilMs = 0;

  constructor(private readonly options: KindeClientOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.nowMs = options.nowMs ?? Date.now;
  }

  async call(operation: KindeOperation, request: KindeRequest): Promise<unknown> {
    const waitMs = this.throttledUntilMs - this.nowMs();
    if (waitMs > 0) {
      throw new ProviderError("retry_later", `Kinde asked for a pause (429); ${Math.ceil(waitMs / 1000)} s left before ${operation.label} may be tried.`, waitMs);
    }
    const token = await this.options.tokens.get();
    let response = await this.send(operation, request, token);
    if (response.status === 401) {
      // Expired or revoked early: drop it, get one new token, try once more.
      this.options.tokens.invalidate(token);
      response = await this.send(operation, request, await this.options.tokens.get());
    }
    const body = await response.json().catch(() => undefined);
    if (response.ok) {
      if (body === undefined) throw new ProviderError(operation.failureKind === "unreadable" ? "unreadable" : "retry_later", `Kinde's answer to ${operation.label} was not JSON.`);
      return body;
    }
    const error = statusError(operation, response.status, response.headers, body);
    if (response.status === 429 && error.retryAfterMs !== undefined) this.throttledUntilMs = this.nowMs() + error.retryAfterMs;
    throw error;
  }

  private async send(operation: KindeOperation, request: KindeRequest, token: string): Promise<Response> {
    const url = new URL(request.path, `${this.options.domain}/`);
    for (const [name, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(name, value);
    try {
      return await this.fetchImpl(url, {
        method: request.method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: "application/json",
          ...(request.body !== undefined ? { "content-type": "application/json" } : {}),
        },
        body: request.body !== undefined ? JSON.stringify(request.body) : undefined,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw transportError(operation, error, this.options.timeoutMs);
    }
  }
}
