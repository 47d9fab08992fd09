/**
 * The fake Kinde server itself: it must refuse what Kinde documents it
 * refuses, or the adapter tests prove less than they claim.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { startFakeKinde, type FakeKinde } from "../fakes/kinde-server";

let fake: FakeKinde;
beforeEach(async () => {
  fake = await startFakeKinde();
});
afterEach(async () => {
  await fake.close();
});

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields),
});
const good = () => ({ grant_type: "client_credentials", client_id: "fake_m2m_client", client_secret: "fake_m2m_secret", audience: `${fake.url}/api` });

async function token(scope?: string): Promise<string> {
  const res = await fetch(`${fake.url}/oauth2/token`, form({ ...good(), ...(scope ? { scope } : {}) }));
  return ((await res.json()) as { access_token: string }).access_token;
}

describe("fake Kinde: token endpoint", () => {
  test("issues an RS256 JWT with Kinde's M2M claims, verifiable at both JWKS paths", async () => {
    const res = await fetch(`${fake.url}/oauth2/token`, form(good()));
    const body = (await res.json()) as { access_token: string; token_type: string; expires_in: number };
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    for (const path of ["/.well-known/jwks", "/.well-known/jwks.json"]) {
      const { payload, protectedHeader } = await jwtVerify(body.access_token, createRemoteJWKSet(new URL(`${fake.url}${path}`)));
      expect(protectedHeader.alg).toBe("RS256");
      expect(payload).toMatchObject({ aud: [`${fake.url}/api`], azp: "fake_m2m_client", iss: fake.url, gty: ["client_credentials"], v: "2", jti: expect.any(String) });
      expect(payload.scp).toContain("create:meter_usage");
    }
  });

  test.each([
    ["a wrong secret", { client_secret: "nope" }, 401, "invalid_client"],
    ["no audience", { audience: "" }, 400, "invalid_request"],
    ["another grant type", { grant_type: "password" }, 400, "invalid_request"],
    ["a scope not enabled", { scope: "delete:everything" }, 400, "invalid_scope"],
    ["an audience the app is not authorized for", { audience: "https://x.kinde.com/api" }, 400, "unauthorized_client"],
  ])("refuses %s with %s %s", async (_what, change, status, error) => {
    const fields = { ...good(), ...change };
    if (fields.audience === "") delete (fields as Partial<typeof fields>).audience;
    const res = await fetch(`${fake.url}/oauth2/token`, form(fields as Record<string, string>));
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ error });
  });

  test("a JSON body is invalid_request: the token endpoint takes a form", async () => {
    const res = await fetch(`${fake.url}/oauth2/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(good()) });
    expect(await res.json()).toMatchObject({ error: "invalid_request" });
  });

  test("a scope subset asked for is what the token carries", async () => {
    expect(decodeJwt(await token("read:billing_entitlements")).scp).toEqual(["read:billing_entitlements"]);
  });
});

describe("fake Kinde: API", () => {
  test("no token is 401; an expired one is 401; a missing scope is 403 naming it", async () => {
    const { customerId } = fake.addCustomer({ tokens: 1 });
    const url = `${fake.url}/api/v1/billing/entitlements?customer_id=${customerId}`;
    expect((await fetch(url)).status).toBe(401);
    const narrow = await token("read:billing_agreements");
    const res = await fetch(url, { headers: { authorization: `Bearer ${narrow}` } });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ errors: [{ code: "FORBIDDEN", message: expect.stringContaining("read:billing_entitlements") }] });
    const full = await token();
    fake.advance(3_601_000);
    expect((await fetch(url, { headers: { authorization: `Bearer ${full}` } })).status).toBe(401);
  });

  test("entitlements page with starting_after and ending_before, default 10; max_value fills a null maximum; expand=plans", async () => {
    const limits = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${String(i).padStart(2, "0")}`, i === 3 ? null : i]));
    const { customerId } = fake.addCustomer(limits, { planCode: "pro" });
    const auth = { headers: { authorization: `Bearer ${await token()}` } };
    const get = async (q: string) => (await (await fetch(`${fake.url}/api/v1/billing/entitlements?customer_id=${customerId}&${q}`, auth)).json()) as {
      has_more: boolean;
      entitlements: { id: string; feature_code: string; entitlement_limit_max: number | null }[];
      plans?: unknown[];
    };
    const first = await get("");
    expect(first.entitlements).toHaveLength(10);
    expect(first.has_more).toBe(true);
    const second = await get(`starting_after=${first.entitlements.at(-1)!.id}`);
    expect(second.entitlements.map((e) => e.feature_code)).toEqual(["f10", "f11"]);
    expect(second.has_more).toBe(false);
    const before = await get(`ending_before=${second.entitlements[0]!.id}&page_size=2`);
    expect(before.entitlements.map((e) => e.feature_code)).toEqual(["f08", "f09"]);
    expect(first.entitlements[3]!.entitlement_limit_max).toBeNull();
    expect((await get("max_value=999")).entitlements[3]!.entitlement_limit_max).toBe(999);
    expect((await get("expand=plans")).plans).toEqual([{ code: "pro", subscribed_on: expect.any(String) }]);
    const res = await fetch(`${fake.url}/api/v1/billing/entitlements`, auth);
    expect(res.status).toBe(400);
  });

  test("meter writes: absolute replaces, delta adds, meter_value must be a string, and only {message, code} comes back", async () => {
    const { agreementId } = fake.addCustomer({ clicks: 10 });
    const post = (body: unknown) =>
      fetch(`${fake.url}/api/v1/billing/meter_usage`, { method: "POST", headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    const bearer = await token();
    const write = (meter_value: unknown, meter_type_code?: string) => post({ customer_agreement_id: agreementId, billing_feature_code: "clicks", meter_value, meter_type_code });
    expect(await (await write("5")).json()).toEqual({ message: "Success", code: "OK" });
    await write("1", "delta");
    await write("1", "delta");
    expect(fake.meterTotal(agreementId, "clicks")).toBe(7);
    await write("4", "absolute");
    expect(fake.meterTotal(agreementId, "clicks")).toBe(4);
    expect((await write(4)).status).toBe(400);
    expect((await post({ customer_agreement_id: agreementId, billing_feature_code: "seats", meter_value: "1" })).status).toBe(400);
  });

  test("429 on demand carries RateLimit-Reset; a hung request gets no answer", async () => {
    fake.throttle(1, 9);
    const res = await fetch(`${fake.url}/api/v1/billing/agreements?customer_id=x`);
    expect(res.status).toBe(429);
    expect(res.headers.get("ratelimit-reset")).toBe("9");
    fake.hang(1);
    await expect(fetch(`${fake.url}/.well-known/jwks`, { signal: AbortSignal.timeout(100) })).rejects.toThrow();
    expect((await fetch(`${fake.url}/.well-known/jwks`)).status).toBe(200);
  });

  test("an unknown route is 404 with Kinde's single-object error", async () => {
    const res = await fetch(`${fake.url}/api/v1/nowhere`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ errors: { code: "ROUTE_NOT_FOUND", message: expect.any(String) } });
  });
});

describe("fake Kinde: webhook delivery", () => {
  test("signed deliveries keep their webhook-id across copies and retries, retry until a 200, and can arrive shuffled", async () => {
    const seen: { id: string; token: string; status: number }[] = [];
    let failuresLeft = 2;
    const intake = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const status = failuresLeft-- > 0 ? 500 : 200;
        seen.push({ id: String(req.headers["webhook-id"]), token: body, status });
        expect(req.headers["content-type"]).toBe("application/jwt");
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => intake.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(intake.address() as AddressInfo).port}/api/webhooks/kinde`;
      const log = await fake.deliverWebhooks(
        url,
        [
          { type: "customer.plan_changed", data: { customer_id: "customer_1", plan: { key: "pro" } } },
          { type: "customer.payment_succeeded", data: { customer_id: "customer_1" } },
          { type: "customer.agreement_cancelled", data: { customer_id: "customer_1" }, eventTimestampMs: fake.now() - 180_000 },
        ],
        { copies: 3, shuffle: true, seed: 7, scheduleScale: 0.001 },
      );
      // 9 deliveries, the first needing three attempts (immediately, +5 ms, +30 ms at this scale).
      expect(log.filter((l) => l.status === 200)).toHaveLength(9);
      expect(log.slice(0, 3).map((l) => [l.attempt, l.status])).toEqual([[1, 500], [2, 500], [3, 200]]);
      expect(new Set(log.slice(0, 3).map((l) => l.webhookId)).size).toBe(1);
      const types = log.filter((l) => l.status === 200).map((l) => l.type);
      expect(types).not.toEqual([...types].sort((a, b) => a.localeCompare(b))); // shuffled, not grouped
      const byId = new Map<string, Set<string>>();
      for (const s of seen) byId.set(s.id, (byId.get(s.id) ?? new Set()).add(s.token));
      expect(byId.size).toBe(3);
      for (const tokens of byId.values()) expect(tokens.size).toBe(1); // the same signed body on every copy
      const keys = createRemoteJWKSet(new URL(`${fake.url}/.well-known/jwks`));
      const { payload } = await jwtVerify(seen.at(-1)!.token, keys, { algorithms: ["RS256"] });
      expect(Object.keys(payload).sort()).toEqual(["data", "event_id", "event_timestamp", "source", "timestamp", "type"]);
    } finally {
      await new Promise((resolve) => intake.close(resolve));
    }
  });
});
