/**
 * The stand-in's admin API and key set, through the real route handlers:
 * operator only, inputs checked, and each call does what the Provider page's
 * buttons do.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createLocalJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as accountsRoute from "../../app/api/v1/accounts/route";
import * as checkRoute from "../../app/api/v1/provider/accounts/[id]/check/route";
import * as limitsRoute from "../../app/api/v1/standin/accounts/[id]/limits/route";
import * as faultsRoute from "../../app/api/v1/standin/faults/route";
import * as webhooksRoute from "../../app/api/v1/standin/webhooks/route";
import * as jwksRoute from "../../app/api/standin/.well-known/jwks/route";
import * as jwksJsonRoute from "../../app/api/standin/.well-known/jwks.json/route";
import { startApi, type ApiHarness } from "./harness";

let api: ApiHarness;
let accountId: string;
beforeAll(async () => {
  api = await startApi();
  const created = await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name: "Stand-in Co" } });
  accountId = (created.body as { account: { id: string } }).account.id;
});
afterAll(async () => {
  await api.close();
});

describe("fault switches: /api/v1/standin/faults", () => {
  test("only the operator may read or change them", async () => {
    expect((await api.call(faultsRoute.GET, { path: "/api/v1/standin/faults", token: null })).status).toBe(401);
    expect((await api.call(faultsRoute.POST, { method: "POST", path: "/api/v1/standin/faults", body: { clear: "all" }, token: null })).status).toBe(401);
  });

  test("a switch turned on shows until it is cleared; bad settings are 400 naming the field", async () => {
    const on = await api.call(faultsRoute.POST, { method: "POST", path: "/api/v1/standin/faults", body: { kind: "rate_limit", count: 5, resetSeconds: 30 } });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ faults: [expect.objectContaining({ kind: "rate_limit", remaining: 5, amount: 30 })] });
    const bad = await api.call(faultsRoute.POST, { method: "POST", path: "/api/v1/standin/faults", body: { kind: "fail_writes", count: 0 } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/count/);
    const cleared = await api.call(faultsRoute.POST, { method: "POST", path: "/api/v1/standin/faults", body: { clear: "rate_limit" } });
    expect(cleared.body).toEqual({ faults: [] });
  });
});

describe("limits: /api/v1/standin/accounts/:id/limits", () => {
  test("a number, unlimited, and back to the plan; the provider check then answers with it", async () => {
    const params = { id: accountId };
    const path = `/api/v1/standin/accounts/${accountId}/limits`;
    const set = await api.call(limitsRoute.PUT, { method: "PUT", path, params, body: { featureCode: "tokens", limitMax: 250 } });
    expect(set.status).toBe(200);
    expect((set.body as { features: unknown[] }).features).toContainEqual({ featureCode: "tokens", planLimitMax: 100_000, overrideLimitMax: 250, effectiveLimitMax: 250 });
    const check = await api.call(checkRoute.GET, { path: `/api/v1/provider/accounts/${accountId}/check`, params });
    expect(check.body).toMatchObject({ provider: "standin", limits: [{ featureCode: "tokens", limit: { ok: true, value: "250" } }, { featureCode: "clicks", limit: { ok: true, value: "1,000" } }] });
    await api.call(limitsRoute.PUT, { method: "PUT", path, params, body: { featureCode: "clicks", limitMax: null } });
    const back = await api.call(limitsRoute.PUT, { method: "PUT", path, params, body: { featureCode: "tokens", limitMax: "plan" } });
    expect((back.body as { features: unknown[] }).features).toEqual([
      { featureCode: "clicks", planLimitMax: 1_000, overrideLimitMax: null, effectiveLimitMax: null },
      { featureCode: "tokens", planLimitMax: 100_000, effectiveLimitMax: 100_000 },
    ]);
    const missing = await api.call(limitsRoute.PUT, { method: "PUT", path, params: { id: "acct_00000000000000000000" }, body: { featureCode: "tokens", limitMax: 1 } });
    expect(missing.status).toBe(404);
  });
});

describe("signed webhooks: /api/v1/standin/webhooks and the key set", () => {
  test("an event is signed, delivered with one webhook-id per copy, and verifies against /api/standin/.well-known/jwks(.json)", async () => {
    const seen: { id: string; body: string }[] = [];
    const intake = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        seen.push({ id: String(req.headers["webhook-id"]), body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => intake.listen(0, "127.0.0.1", resolve));
    try {
      const intakeUrl = `http://127.0.0.1:${(intake.address() as AddressInfo).port}/api/webhooks/kinde`;
      const sent = await api.call(webhooksRoute.POST, {
        method: "POST",
        path: "/api/v1/standin/webhooks",
        body: { type: "customer.plan_changed", accountId, planCode: "pro", copies: 2, intakeUrl },
      });
      expect(sent.status).toBe(200);
      const answer = sent.body as { webhookId: string; deliveries: { status: number }[]; event: { type: string } };
      expect(answer.deliveries.map((d) => d.status)).toEqual([200, 200]);
      expect(seen.map((s) => s.id)).toEqual([answer.webhookId, answer.webhookId]);

      for (const route of [jwksRoute, jwksJsonRoute]) {
        const jwks = await api.call(route.GET, { path: "/api/standin/.well-known/jwks", token: null });
        expect(jwks.status).toBe(200);
        const { payload } = await jwtVerify(seen[0]!.body, createLocalJWKSet(jwks.body as { keys: [] }), { algorithms: ["RS256"] });
        expect(payload).toMatchObject({ type: "customer.plan_changed", data: { plan: { key: "pro" } } });
      }
      const check = await api.call(checkRoute.GET, { path: `/api/v1/provider/accounts/${accountId}/check`, params: { id: accountId } });
      expect(check.body).toMatchObject({ agreement: { ok: true, value: { planCode: "pro" } } });
    } finally {
      await new Promise((resolve) => intake.close(resolve));
    }
  });

  test("a plan event without a plan is 400", async () => {
    const sent = await api.call(webhooksRoute.POST, { method: "POST", path: "/api/v1/standin/webhooks", body: { type: "customer.plan_changed", accountId } });
    expect(sent.status).toBe(400);
  });
});
