/**
 * Test kit for the inbox: an RS256 key pair served as a local key set (the
 * provider's stand-in does the same with its own key), token signing, and
 * deliveries into the real intake code through the real route wrapper.
 */
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWK, type JWTVerifyGetKey } from "jose";
import type { Engine } from "../../lib/engine/types";
import { json, route } from "../../lib/http/api";
import { DRILL_HEADER, DRILL_STOP_WORKER, intake } from "../../lib/inbox/intake";
import { naiveIntake } from "../../lib/inbox/naive";
import type { RoomDeps, Target } from "../../lib/inbox/engine-room/run";

export interface TestKeys {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  keys: JWTVerifyGetKey;
  sign(claims: Record<string, unknown>, header?: Record<string, unknown>): Promise<string>;
}

export async function makeTestKeys(kid = "test-key-1"): Promise<TestKeys> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" };
  return {
    kid,
    privateKey,
    publicJwk,
    keys: createLocalJWKSet({ keys: [publicJwk] }),
    sign: (claims, header = {}) => new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid, typ: "JWT", ...header }).sign(privateKey),
  };
}

export const SEVEN_DAYS_MS = 7 * 24 * 3_600_000;

export function kindeClaims(over: { type: string; customerId: string; atMs: number; plan?: string; eventId?: string; data?: Record<string, unknown> }): Record<string, unknown> {
  return {
    type: over.type,
    event_id: over.eventId ?? `event_${Math.random().toString(36).slice(2, 14)}`,
    timestamp: new Date(over.atMs + 1000).toISOString(),
    event_timestamp: new Date(over.atMs).toISOString(),
    source: "admin",
    data: { customer_id: over.customerId, customer_type: "user", ...(over.plan ? { plan: { key: over.plan } } : {}), ...over.data },
  };
}

export function webhookRequest(token: string, headers: Record<string, string> = {}, path = "/api/webhooks/kinde"): Request {
  return new Request(`http://127.0.0.1${path}`, { method: "POST", headers: { "content-type": "application/jwt", ...headers }, body: token });
}

/** The intake and the naive handler as route handlers over an engine (what app/api/webhooks/kinde/**\/route.ts do over the runtime). */
export function intakeRoutes(engine: Engine, keys: JWTVerifyGetKey, options: { operator?: boolean; maxAgeMs?: number } = {}) {
  const deps = () => ({ run: engine.run.bind(engine), keys, nowMs: Date.now(), maxAgeMs: options.maxAgeMs ?? SEVEN_DAYS_MS, log: () => {}, operator: options.operator ?? false });
  return {
    pipeline: route(async (request: Request) => {
      const r = await intake(request, deps());
      return json({ received: true, ...r });
    }),
    naive: route(async (request: Request) => json(await naiveIntake(request, deps()))),
  };
}

/** Engine Room deps that deliver straight into the intake code, with a clock moved by sleep. */
export function roomDeps(engine: Engine, testKeys: TestKeys, advance: (ms: number) => void): RoomDeps {
  const routes = intakeRoutes(engine, testKeys.keys, { operator: true });
  return {
    run: engine.run.bind(engine),
    nowMs: () => Date.now(),
    sleep: async (ms) => advance(ms),
    sign: (claims) => testKeys.sign(claims),
    async deliver(target: Target, d) {
      const headers: Record<string, string> = { "webhook-id": d.webhookId };
      if (d.stopWorker) headers[DRILL_HEADER] = DRILL_STOP_WORKER;
      const response = await (target === "pipeline" ? routes.pipeline : routes.naive)(webhookRequest(d.token, headers), undefined);
      return { status: response.status, body: await response.json() };
    },
  };
}
