/**
 * The M2M access token for Kinde's Management API. Kinde bills every token it
 * issues, so one token serves every call until shortly before it expires; when
 * many callers need a new one at once, one request is made and all of them
 * wait for it; a token Kinde refuses (401) is dropped so the next caller gets
 * a new one.
 */
import { ProviderError } from "../port";
import { kindeErrorText, OPERATIONS, retryAfterMsOf, transportError } from "./errors";

export interface TokenSourceOptions {
  domain: string;
  clientId: string;
  clientSecret: string;
  audience: string;
  timeoutMs: number;
  fetch?: typeof fetch;
  nowMs?: () => number;
}

/** Renew this long before expiry (or a tenth of the lifetime, if shorter), so a token never expires in flight. */
export const TOKEN_RENEW_BEFORE_MS = 60_000;

export class M2MTokenSource {
  private current: { token: string; renewAtMs: number } | null = null;
  private inFlight: Promise<string> | null = null;
  private readonly fetchImpl: typeof fetch;
  private readonly nowMs: () => number;
  /** How many tokens this source has asked Kinde for (each one is billed). */
  requests = 0;

  constructor(private readonly options: TokenSourceOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.nowMs = options.nowMs ?? Date.now;
  }

  /** A valid token: the cached one, the one already being fetched, or a new one. */
  get(): Promise<string> {
    if (this.current && this.nowMs() < this.current.renewAtMs) return Promise.resolve(this.current.token);
    this.inFlight ??= this.fetchToken().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /** Drops `token` if it is still the cached one (a 401 said it is no good). */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = null;
  }

  private async fetchToken(): Promise<string> {
    const { domain, clientId, clientSecret, audience, timeoutMs } = this.options;
    const operation = OPERATIONS.token;
    this.requests += 1;
    const startedAtMs = this.nowMs();
    let response: Response;
    try {
      response = await this.fetchImpl(`${domain}/oauth2/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded; charset=UTF-8", accept: "application/json" },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret, audience }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw transportError(operation, error, timeoutMs);
    }
    const body = await response.json().catch(() => null);
    if (!response.ok) throw tokenError(response.status, response.headers, body);
    const { access_token: token, expires_in: expiresInSeconds } = (body ?? {}) as { access_token?: unknown; expires_in?: unknown };
    if (typeof token !== "string" || token.length === 0 || typeof expiresInSeconds !== "number" || !(expiresInSeconds > 0)) {
      throw new ProviderError("retry_later", "Kinde's token endpoint answered without an access_token and expires_in.");
    }
    const lifetimeMs = expiresInSeconds * 1000;
    this.current = { token, renewAtMs: startedAtMs + lifetimeMs - Math.min(TOKEN_RENEW_BEFORE_MS, lifetimeMs / 10) };
    return token;
  }
}

/** The token endpoint's OAuth errors, each with what to fix. */
function tokenError(status: number, headers: Headers, body: unknown): ProviderError {
  const code = typeof body === "object" && body !== null ? (body as { error?: unknown }).error : undefined;
  const said = kindeErrorText(body);
  if (status === 429) {
    const retryAfterMs = retryAfterMsOf(headers);
    return new ProviderError("retry_later", `Kinde throttled the token request (429); RateLimit-Reset: ${retryAfterMs / 1000} s.`, retryAfterMs);
  }
  if (status >= 500) return new ProviderError("retry_later", `Kinde's token endpoint failed (${status}).`);
  switch (code) {
    case "invalid_client":
      return new ProviderError("not_allowed", "Kinde refused the M2M credentials (invalid_client): check KINDE_M2M_CLIENT_ID and KINDE_M2M_CLIENT_SECRET.");
    case "unauthorized_client":
      return new ProviderError("not_allowed", "The M2M application is not authorized for the Kinde Management API (unauthorized_client): authorize it under APIs, or check KINDE_AUDIENCE.");
    case "invalid_scope":
      return new ProviderError("not_allowed", `Kinde refused a requested scope (invalid_scope): enable it for the M2M application. ${said}`.trim());
    default:
      return new ProviderError("rejected", `Kinde's token endpoint refused the request (${status}${said ? `, ${said}` : ""}).`);
  }
}
