/**
 * A fake Kinde, over real HTTP on 127.0.0.1 (random port), built from the
 * documented API (shared/spec/kinde-api.md §9): the M2M token endpoint with
 * its OAuth errors and RS256 JWTs, scopes enforced with 403, 401 for a
 * missing or expired token, billing entitlements and agreements with paging,
 * meter writes (absolute replaces, delta adds, a write lands in the cycle that
 * is current when it arrives) and the meter read Part B describes, 429 with
 * RateLimit-Reset on demand, requests that never get an answer, both JWKS
 * paths, and signed webhook deliveries with retries, copies and shuffled order.
 *
 * Its clock is its own (now(), advance()), so token expiry and billing cycles
 * can be moved without sleeping. Used by the contract suite, the adapter tests
 * and `npm run dev:kinde-fake`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK } from "jose";

export const ALL_SCOPES = ["read:billing_entitlements", "read:billing_agreements", "create:meter_usage", "read:meter_usage"] as const;
export const DEFAULT_METER_READ_PATH = "/api/v1/billing/meter_usage";
/** Kinde's documented retry schedule: immediately, +5 s, +30 s, +2 min, +10 min, +1 h, +4 h, then every 12 h until 36 h. */
export const KINDE_RETRY_SCHEDULE_MS = [0, 5_000, 30_000, 120_000, 600_000, 3_600_000, 14_400_000, 43_200_000, 43_200_000, 43_200_000];

export interface FakeClient {
  clientId: string;
  clientSecret: string;
  /** The scopes enabled for the application. */
  scopes: Set<string>;
}

export interface FakeEntitlement {
  id: string;
  feature_code: string;
  feature_name: string;
  price_name: string;
  unit_amount: number | null;
  fixed_charge: number | null;
  entitlement_limit_max: number | null;
  entitlement_limit_min: number | null;
}

export interface FakeAgreement {
  id: string;
  plan_code: string;
  /** Start of the first period; cycles are monthly from here. */
  anchorMs: number;
  expiresOnMs: number | null;
  featureCodes: string[];
}

export interface FakeMeterRecord {
  id: string;
  agreementId: string;
  featureCode: string;
  kind: "absolute" | "delta";
  value: number;
  timestamp: string;
  createdAtMs: number;
  /** The cycle the record landed in: the one current when it arrived. */
  cycleStartMs: number;
}

export interface FakeCustomer {
  id: string;
  entitlements: FakeEntitlement[];
  agreements: FakeAgreement[];
  plans: { code: string; subscribed_on: string }[];
}

export interface FakeKindeOptions {
  clients?: { clientId: string; clientSecret: string; scopes?: readonly string[] }[];
  tokenLifetimeSeconds?: number;
  /** Where the meter read answers; null: no read endpoint (as in the published spec). */
  meterReadPath?: string | null;
  /**
   * Serve a control API under /__fake/ (for `npm run dev:kinde-fake`): GET /__fake/state, POST /__fake/throttle
   * {requests, resetSeconds}, /__fake/hang {requests}, /__fake/stop-hanging, /__fake/expire-tokens, /__fake/advance {ms},
   * /__fake/webhooks {url, events, copies, shuffle}. Off by default.
   */
  control?: boolean;
  /** Where the key set is served (default both documented paths). */
  jwksPaths?: readonly string[];
  port?: number;
}

export interface WebhookEventInput {
  type: string;
  data: Record<string, unknown>;
  /** When the change happened (event_timestamp); `timestamp` is when it is sent (about a second later). */
  eventTimestampMs?: number;
}

export interface DeliveryAttempt {
  webhookId: string;
  eventId: string;
  type: string;
  copy: number;
  attempt: number;
  status: number | null;
  atMs: number;
}

const id = (prefix: string) => `${prefix}_${randomBytes(16).toString("hex")}`;

function addMonths(ms: number, months: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
}

/** The start of the monthly cycle (from `anchorMs`) that contains `nowMs`. */
export function cycleStartAt(anchorMs: number, nowMs: number): number {
  if (nowMs <= anchorMs) return anchorMs;
  const a = new Date(anchorMs);
  const n = new Date(nowMs);
  let months = (n.getUTCFullYear() - a.getUTCFullYear()) * 12 + (n.getUTCMonth() - a.getUTCMonth());
  if (addMonths(anchorMs, months) > nowMs) months -= 1;
  return addMonths(anchorMs, months);
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(`HTTP ${status}`);
  }
}

const apiError = (status: number, code: string, message: string) => new HttpError(status, { errors: [{ code, message }] });
const oauthError = (status: number, error: string, description: string) => new HttpError(status, { error, error_description: description });

export class FakeKinde {
  url = "";
  readonly clients = new Map<string, FakeClient>();
  readonly customers = new Map<string, FakeCustomer>();
  readonly records: FakeMeterRecord[] = [];
  /** Every request: method, path and when (the fake's clock). */
  readonly requests: { method: string; path: string; atMs: number }[] = [];
  tokenLifetimeSeconds: number;
  meterReadPath: string | null;

  private server: http.Server | null = null;
  private key: { kid: string; privateKey: CryptoKey; publicJwk: JWK } | null = null;
  private offsetMs = 0;
  private validJtis = new Set<string>();
  private throttleLeft = 0;
  private throttleResetSeconds = 30;
  private hangLeft = 0;
  private readonly hung = new Set<http.ServerResponse>();

  constructor(private readonly options: FakeKindeOptions = {}) {
    this.tokenLifetimeSeconds = options.tokenLifetimeSeconds ?? 3600;
    this.meterReadPath = options.meterReadPath === undefined ? DEFAULT_METER_READ_PATH : options.meterReadPath;
    for (const c of options.clients ?? [{ clientId: "fake_m2m_client", clientSecret: "fake_m2m_secret" }]) {
      this.clients.set(c.clientId, { clientId: c.clientId, clientSecret: c.clientSecret, scopes: new Set(c.scopes ?? ALL_SCOPES) });
    }
  }

  // ------------------------------------------------------------ lifecycle and levers

  async start(): Promise<this> {
    const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
    const publicJwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(publicJwk);
    this.key = { kid, privateKey, publicJwk: { ...publicJwk, kid, alg: "RS256", use: "sig" } };
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(this.options.port ?? 0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const res of this.hung) res.destroy();
    this.hung.clear();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The fake's clock: real time moved on by advance(). */
  now = (): number => Date.now() + this.offsetMs;

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  /** The next `requests` API requests answer 429 with RateLimit-Reset `resetSeconds`. */
  throttle(requests: number, resetSeconds: number): void {
    this.throttleLeft = requests;
    this.throttleResetSeconds = resetSeconds;
  }

  /** The next `requests` requests (any path) get no answer at all. Infinity: every request until stopHanging(). */
  hang(requests = Infinity): void {
    this.hangLeft = requests;
  }

  stopHanging(): void {
    this.hangLeft = 0;
  }

  /** Every token issued so far stops working (as if expired or revoked): the next call gets 401. */
  expireTokens(): void {
    this.validJtis.clear();
  }

  setScopes(clientId: string, scopes: readonly string[]): void {
    this.clients.get(clientId)!.scopes = new Set(scopes);
  }

  tokenRequests(): number {
    return this.requests.filter((r) => r.path === "/oauth2/token").length;
  }

  /**
   * A billing customer with one agreement granting `limits` (null: no maximum).
   * The agreement's cycles are anchored `anchorMs` (default: ten days ago on the fake's clock).
   */
  addCustomer(limits: Record<string, number | null>, options: { customerId?: string; planCode?: string; anchorMs?: number } = {}): { customerId: string; agreementId: string } {
    const customerId = options.customerId ?? id("customer");
    const agreementId = id("agreement");
    const anchorMs = options.anchorMs ?? this.now() - 10 * 86_400_000;
    const planCode = options.planCode ?? "pro";
    this.customers.set(customerId, {
      id: customerId,
      entitlements: Object.entries(limits).map(([feature, max]) => ({
        id: id("entitlement"),
        feature_code: feature,
        feature_name: feature[0]!.toUpperCase() + feature.slice(1),
        price_name: `${feature} per unit`,
        unit_amount: 1,
        fixed_charge: null,
        entitlement_limit_max: max,
        entitlement_limit_min: 0,
      })),
      agreements: [{ id: agreementId, plan_code: planCode, anchorMs, expiresOnMs: null, featureCodes: Object.keys(limits) }],
      plans: [{ code: planCode, subscribed_on: new Date(anchorMs).toISOString() }],
    });
    return { customerId, agreementId };
  }

  /** The meter as Kinde would total it: the fold of a cycle's records (default: the current cycle). */
  meterTotal(agreementId: string, featureCode: string, cycleStartMs?: number): number {
    const agreement = this.findAgreement(agreementId);
    const cycle = cycleStartMs ?? cycleStartAt(agreement!.anchorMs, this.now());
    let total = 0;
    for (const r of this.records) {
      if (r.agreementId === agreementId && r.featureCode === featureCode && r.cycleStartMs === cycle) total = r.kind === "absolute" ? r.value : total + r.value;
    }
    return total;
  }

  findAgreement(agreementId: string): FakeAgreement | undefined {
    for (const c of this.customers.values()) for (const a of c.agreements) if (a.id === agreementId) return a;
    return undefined;
  }

  // ------------------------------------------------------------ webhooks

  async signWebhook(event: Record<string, unknown>): Promise<string> {
    return new SignJWT(event).setProtectedHeader({ alg: "RS256", kid: this.key!.kid, typ: "JWT" }).sign(this.key!.privateKey);
  }

  /**
   * Delivers webhooks as Kinde does: a raw RS256 JWT, Content-Type
   * application/jwt, a webhook-id that stays the same across copies and
   * retries. A delivery that does not get a 200 is retried on the schedule
   * (Kinde's, times `scheduleScale`) until it gets one or runs out of attempts.
   * `copies` sends each event that many times; `shuffle` mixes the order.
   */
  async deliverWebhooks(
    url: string,
    events: readonly WebhookEventInput[],
    options: { copies?: number; shuffle?: boolean; scheduleScale?: number; maxAttempts?: number; timeoutMs?: number; seed?: number } = {},
  ): Promise<DeliveryAttempt[]> {
    const { copies = 1, shuffle = false, scheduleScale = 0.001, maxAttempts = KINDE_RETRY_SCHEDULE_MS.length, timeoutMs = 5_000 } = options;
    const signed = await Promise.all(
      events.map(async (e) => {
        const sentAtMs = this.now();
        const event = {
          type: e.type,
          event_id: id("event"),
          timestamp: new Date(sentAtMs).toISOString(),
          event_timestamp: new Date(e.eventTimestampMs ?? sentAtMs - 1_000).toISOString(),
          source: "admin",
          data: e.data,
        };
        return { event, token: await this.signWebhook(event), webhookId: id("msg") };
      }),
    );
    const queue = signed.flatMap((s) => Array.from({ length: copies }, (_, copy) => ({ ...s, copy })));
    if (shuffle) seededShuffle(queue, options.seed ?? 1);
    const log: DeliveryAttempt[] = [];
    for (const item of queue) {
      for (let attempt = 0; attempt < Math.min(maxAttempts, KINDE_RETRY_SCHEDULE_MS.length); attempt++) {
        const delay = KINDE_RETRY_SCHEDULE_MS[attempt]! * scheduleScale;
        if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
        let status: number | null = null;
        try {
          const response = await fetch(url, {
            method: "POST",
            headers: { "content-type": "application/jwt", "webhook-id": item.webhookId },
            body: item.token,
            signal: AbortSignal.timeout(timeoutMs),
          });
          status = response.status;
          await response.arrayBuffer().catch(() => undefined);
        } catch {
          status = null;
        }
        log.push({ webhookId: item.webhookId, eventId: item.event.event_id, type: item.event.type, copy: item.copy, attempt: attempt + 1, status, atMs: this.now() });
        if (status === 200) break;
      }
    }
    return log;
  }

  // ------------------------------------------------------------ HTTP

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake");
    this.requests.push({ method: req.method ?? "GET", path: url.pathname, atMs: this.now() });
    if (this.hangLeft > 0) {
      this.hangLeft -= 1;
      this.hung.add(res);
      req.resume();
      return;
    }
    try {
      const body = await readBody(req);
      const answer = await this.route(req, url, body);
      send(res, 200, answer);
    } catch (error) {
      if (error instanceof HttpError) send(res, error.status, error.body, error.headers);
      else send(res, 500, { errors: [{ code: "INTERNAL", message: String(error) }] });
    }
  }

  private async route(req: http.IncomingMessage, url: URL, body: string): Promise<unknown> {
    const path = url.pathname;
    const method = req.method ?? "GET";
    if (method === "GET" && (this.options.jwksPaths ?? ["/.well-known/jwks", "/.well-known/jwks.json"]).includes(path)) return { keys: [this.key!.publicJwk] };
    if (method === "POST" && path === "/oauth2/token") return this.token(req, body);
    if (this.options.control && path.startsWith("/__fake/")) return this.control(method, path, body);
    if (path.startsWith("/api/")) {
      if (this.throttleLeft > 0) {
        this.throttleLeft -= 1;
        throw new HttpError(429, { errors: [{ code: "TOO_MANY_REQUESTS", message: "Request was throttled" }] }, { "RateLimit-Reset": String(this.throttleResetSeconds) });
      }
      if (method === "GET" && path === "/api/v1/billing/entitlements") return this.entitlements(req, url);
      if (method === "GET" && path === "/api/v1/billing/agreements") return this.agreements(req, url);
      if (method === "POST" && path === "/api/v1/billing/meter_usage") return this.meterWrite(req, body);
      if (method === "GET" && this.meterReadPath !== null && path === this.meterReadPath) return this.meterRead(req, url);
    }
    throw new HttpError(404, { errors: { code: "ROUTE_NOT_FOUND", message: `The requested API route does not exist: ${method} ${path}` } });
  }

  /** The levers, over HTTP, for a person watching the app talk to the fake. */
  private async control(method: string, path: string, body: string): Promise<unknown> {
    const input = (body ? JSON.parse(body) : {}) as Record<string, unknown>;
    const num = (v: unknown, fallback: number) => (typeof v === "number" && Number.isFinite(v) ? v : fallback);
    if (method === "GET" && path === "/__fake/state") {
      return {
        now: new Date(this.now()).toISOString(),
        tokensIssued: this.tokenRequests(),
        customers: [...this.customers.values()].map((c) => ({
          id: c.id,
          agreements: c.agreements.map((a) => ({
            id: a.id,
            plan_code: a.plan_code,
            current_period_start: new Date(cycleStartAt(a.anchorMs, this.now())).toISOString(),
            meter: Object.fromEntries(a.featureCodes.map((f) => [f, this.meterTotal(a.id, f)])),
          })),
          entitlements: c.entitlements.map((e) => ({ feature_code: e.feature_code, entitlement_limit_max: e.entitlement_limit_max })),
        })),
        requests: this.requests.slice(-20),
      };
    }
    if (method !== "POST") throw apiError(405, "METHOD_NOT_ALLOWED", "Use POST.");
    switch (path) {
      case "/__fake/throttle":
        this.throttle(num(input.requests, 1), num(input.resetSeconds, 30));
        return { ok: true };
      case "/__fake/hang":
        this.hang(num(input.requests, Infinity));
        return { ok: true };
      case "/__fake/stop-hanging":
        this.stopHanging();
        return { ok: true };
      case "/__fake/expire-tokens":
        this.expireTokens();
        return { ok: true };
      case "/__fake/advance":
        this.advance(num(input.ms, 0));
        return { now: new Date(this.now()).toISOString() };
      case "/__fake/webhooks": {
        if (typeof input.url !== "string" || !Array.isArray(input.events)) throw apiError(400, "BAD_REQUEST", "Send {url, events: [{type, data}], copies?, shuffle?}.");
        // Retries on a schedule scaled to a thousandth (5 s → 5 ms), at most `maxAttempts` (default 4) per delivery.
        const log = await this.deliverWebhooks(input.url, input.events as WebhookEventInput[], {
          copies: num(input.copies, 1),
          shuffle: input.shuffle === true,
          scheduleScale: 0.001,
          maxAttempts: num(input.maxAttempts, 4),
        });
        return { deliveries: log };
      }
    }
    throw apiError(404, "NOT_FOUND", `No control ${path}.`);
  }

  private async token(req: http.IncomingMessage, body: string): Promise<unknown> {
    if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers["content-type"] ?? "")) throw oauthError(400, "invalid_request", "The body must be form-encoded.");
    const form = new URLSearchParams(body);
    if (form.get("grant_type") !== "client_credentials") throw oauthError(400, "invalid_request", "grant_type must be client_credentials.");
    const client = this.clients.get(form.get("client_id") ?? "");
    if (!client || client.clientSecret !== form.get("client_secret")) throw oauthError(401, "invalid_client", "Client authentication failed.");
    const audience = form.get("audience");
    if (!audience) throw oauthError(400, "invalid_request", "The audience parameter is required.");
    if (audience !== `${this.url}/api`) throw oauthError(400, "unauthorized_client", "The application is not authorized for this audience.");
    const requested = form.get("scope")?.split(" ").filter(Boolean) ?? null;
    if (requested && requested.some((s) => !client.scopes.has(s))) throw oauthError(400, "invalid_scope", "A requested scope is not enabled for this application.");
    const scopes = requested ?? [...client.scopes];
    const nowSeconds = Math.floor(this.now() / 1000);
    const jti = id("jti");
    const accessToken = await new SignJWT({ azp: client.clientId, gty: ["client_credentials"], scope: scopes.join(" "), scp: scopes, v: "2" })
      .setProtectedHeader({ alg: "RS256", kid: this.key!.kid, typ: "JWT" })
      .setAudience([audience])
      .setIssuer(this.url)
      .setIssuedAt(nowSeconds)
      .setExpirationTime(nowSeconds + this.tokenLifetimeSeconds)
      .setJti(jti)
      .sign(this.key!.privateKey);
    this.validJtis.add(jti);
    return { access_token: accessToken, token_type: "Bearer", expires_in: this.tokenLifetimeSeconds };
  }

  private async authorize(req: http.IncomingMessage, scope: string): Promise<void> {
    const match = /^Bearer (.+)$/.exec(req.headers.authorization ?? "");
    if (!match) throw apiError(401, "UNAUTHORIZED", "A bearer token is required.");
    let scp: unknown;
    try {
      const { payload } = await jwtVerify(match[1]!, this.key!.publicJwk, { algorithms: ["RS256"], audience: `${this.url}/api`, issuer: this.url, currentDate: new Date(this.now()) });
      if (!this.validJtis.has(payload.jti ?? "")) throw new Error("revoked");
      scp = payload.scp;
    } catch {
      throw apiError(401, "UNAUTHORIZED", "The token is missing, expired or invalid.");
    }
    if (!Array.isArray(scp) || !scp.includes(scope)) throw apiError(403, "FORBIDDEN", `The token does not have the required scope: ${scope}.`);
  }

  private customerOf(url: URL): FakeCustomer | null {
    const customerId = url.searchParams.get("customer_id");
    if (!customerId) throw apiError(400, "CUSTOMER_ID_REQUIRED", "customer_id is required.");
    return this.customers.get(customerId) ?? null;
  }

  private async entitlements(req: http.IncomingMessage, url: URL): Promise<unknown> {
    await this.authorize(req, "read:billing_entitlements");
    const customer = this.customerOf(url);
    const maxValue = url.searchParams.get("max_value");
    const all = (customer?.entitlements ?? []).map((e) => ({
      ...e,
      entitlement_limit_max: e.entitlement_limit_max === null && maxValue !== null ? Number(maxValue) : e.entitlement_limit_max,
    }));
    const { items, hasMore } = page(all, url);
    return {
      code: "OK",
      message: "Success",
      has_more: hasMore,
      entitlements: items,
      ...(url.searchParams.get("expand") === "plans" ? { plans: customer?.plans ?? [] } : {}),
    };
  }

  private async agreements(req: http.IncomingMessage, url: URL): Promise<unknown> {
    await this.authorize(req, "read:billing_agreements");
    const customer = this.customerOf(url);
    const feature = url.searchParams.get("feature_code");
    const nowMs = this.now();
    const all = (customer?.agreements ?? [])
      .filter((a) => !feature || a.featureCodes.includes(feature))
      .map((a) => {
        const active = a.expiresOnMs === null || a.expiresOnMs > nowMs;
        const start = active ? cycleStartAt(a.anchorMs, nowMs) : null;
        return {
          id: a.id,
          plan_code: a.plan_code,
          expires_on: a.expiresOnMs === null ? null : new Date(a.expiresOnMs).toISOString(),
          billing_group_id: null,
          current_period_start: start === null ? null : new Date(start).toISOString(),
          current_period_end: start === null ? null : new Date(addMonths(start, 1)).toISOString(),
          entitlements: a.featureCodes.map((f) => ({ feature_code: f, entitlement_id: customer!.entitlements.find((e) => e.feature_code === f)?.id ?? null })),
        };
      });
    const { items, hasMore } = page(all, url);
    return { code: "OK", message: "Success", has_more: hasMore, agreements: items };
  }

  private async meterWrite(req: http.IncomingMessage, body: string): Promise<unknown> {
    await this.authorize(req, "create:meter_usage");
    let input: Record<string, unknown>;
    try {
      input = JSON.parse(body) as Record<string, unknown>;
    } catch {
      throw apiError(400, "INVALID_JSON", "The body is not JSON.");
    }
    const { customer_agreement_id: agreementId, billing_feature_code: feature, meter_value: value, meter_type_code: kind = "absolute", meter_usage_timestamp: timestamp } = input;
    if (typeof agreementId !== "string") throw apiError(400, "CUSTOMER_AGREEMENT_ID_REQUIRED", "customer_agreement_id is required.");
    if (typeof feature !== "string") throw apiError(400, "BILLING_FEATURE_CODE_REQUIRED", "billing_feature_code is required.");
    if (typeof value !== "string" || !/^-?\d+$/.test(value)) throw apiError(400, "INVALID_METER_VALUE", "meter_value must be a string holding a number.");
    if (kind !== "absolute" && kind !== "delta") throw apiError(400, "INVALID_METER_TYPE_CODE", "meter_type_code must be absolute or delta.");
    const agreement = this.findAgreement(agreementId);
    if (!agreement) throw apiError(400, "AGREEMENT_NOT_FOUND", `No agreement ${agreementId}.`);
    if (!agreement.featureCodes.includes(feature)) throw apiError(400, "FEATURE_NOT_IN_AGREEMENT", `Agreement ${agreementId} has no feature ${feature}.`);
    const nowMs = this.now();
    // Usage lands in the cycle current when it arrives: after a cycle closed, in the next one, whatever its timestamp says.
    this.records.push({
      id: id("meter_usage"),
      agreementId,
      featureCode: feature,
      kind,
      value: Number(value),
      timestamp: typeof timestamp === "string" ? timestamp : new Date(nowMs).toISOString(),
      createdAtMs: nowMs,
      cycleStartMs: cycleStartAt(agreement.anchorMs, nowMs),
    });
    return { message: "Success", code: "OK" };
  }

  private async meterRead(req: http.IncomingMessage, url: URL): Promise<unknown> {
    await this.authorize(req, "read:meter_usage");
    const agreementId = url.searchParams.get("customer_agreement_id");
    if (!agreementId) throw apiError(400, "CUSTOMER_AGREEMENT_ID_REQUIRED", "customer_agreement_id is required.");
    const agreement = this.findAgreement(agreementId);
    if (!agreement) throw apiError(400, "AGREEMENT_NOT_FOUND", `No agreement ${agreementId}.`);
    const feature = url.searchParams.get("billing_feature_code");
    const allCycles = url.searchParams.get("all_cycles") === "true";
    const current = cycleStartAt(agreement.anchorMs, this.now());
    const all = this.records
      .filter((r) => r.agreementId === agreementId && (!feature || r.featureCode === feature) && (allCycles || r.cycleStartMs === current))
      .map((r) => ({
        id: r.id,
        customer_agreement_id: r.agreementId,
        billing_feature_code: r.featureCode,
        meter_type_code: r.kind,
        meter_value: String(r.value),
        meter_usage_timestamp: r.timestamp,
        created_on: new Date(r.createdAtMs).toISOString(),
        cycle_start: new Date(r.cycleStartMs).toISOString(),
        cycle_end: new Date(addMonths(r.cycleStartMs, 1)).toISOString(),
      }));
    const { items, hasMore } = page(all, url, 100);
    return { code: "OK", message: "Success", has_more: hasMore, meter_usage: items };
  }
}

/** Kinde's paging: page_size (default 10, at most 500), starting_after / ending_before an item id. */
function page<T extends { id: string }>(all: T[], url: URL, defaultSize = 10): { items: T[]; hasMore: boolean } {
  const raw = url.searchParams.get("page_size");
  const size = Math.min(500, Math.max(1, raw === null ? defaultSize : Number(raw) || defaultSize));
  const after = url.searchParams.get("starting_after");
  const before = url.searchParams.get("ending_before");
  if (before) {
    const end = all.findIndex((i) => i.id === before);
    const upTo = end === -1 ? all.length : end;
    const start = Math.max(0, upTo - size);
    return { items: all.slice(start, upTo), hasMore: start > 0 };
  }
  const start = after ? all.findIndex((i) => i.id === after) + 1 : 0;
  const items = all.slice(start, start + size);
  return { items, hasMore: start + size < all.length };
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
}

function seededShuffle<T>(items: T[], seed: number): void {
  let state = seed >>> 0 || 1;
  const next = () => ((state = (state * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32);
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
}

export async function startFakeKinde(options: FakeKindeOptions = {}): Promise<FakeKinde> {
  return new FakeKinde(options).start();
}
