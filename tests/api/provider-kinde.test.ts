/**
 * The runtime with TOLLBOOTH_PROVIDER=kinde, against the fake Kinde server:
 * runtime.provider is the Kinde adapter, and the provider check reads the
 * customer through it. The secret never appears in an answer.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as accountsRoute from "../../app/api/v1/accounts/route";
import * as checkRoute from "../../app/api/v1/provider/accounts/[id]/check/route";
import { getRuntime } from "../../lib/runtime";
import { startFakeKinde, type FakeKinde } from "../fakes/kinde-server";
import { startApi, type ApiHarness } from "./harness";

let api: ApiHarness;
let fake: FakeKinde;
beforeAll(async () => {
  fake = await startFakeKinde({ clients: [{ clientId: "api_client", clientSecret: "api_secret_never_shown" }] });
  api = await startApi({ TOLLBOOTH_PROVIDER: "kinde", KINDE_DOMAIN: fake.url, KINDE_M2M_CLIENT_ID: "api_client", KINDE_M2M_CLIENT_SECRET: "api_secret_never_shown" });
});
afterAll(async () => {
  await api.close();
  await fake.close();
});

describe("runtime.provider with TOLLBOOTH_PROVIDER=kinde", () => {
  test("is the Kinde adapter, and the check reads agreement, limits and meter from Kinde", async () => {
    expect(getRuntime().provider.name).toBe("kinde");
    expect(getRuntime().standin.name).toBe("standin");
    fake.addCustomer({ tokens: null, clicks: 1_000 }, { customerId: "customer_api_1", planCode: "pro" });
    const created = await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name: "Kinde Co", kindeCustomerId: "customer_api_1" } });
    const id = (created.body as { account: { id: string } }).account.id;
    const check = await api.call(checkRoute.GET, { path: `/api/v1/provider/accounts/${id}/check`, params: { id } });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({
      provider: "kinde",
      agreement: { ok: true, value: { planCode: "pro", id: expect.stringMatching(/^agreement_/) } },
      limits: [
        { featureCode: "tokens", limit: { ok: true, value: "unlimited" } },
        { featureCode: "clicks", limit: { ok: true, value: "1,000" } },
      ],
      usage: [{ featureCode: "tokens", total: { ok: true, value: 0 } }, { featureCode: "clicks", total: { ok: true, value: 0 } }],
    });
    expect(JSON.stringify(check.body)).not.toContain("api_secret_never_shown");
  });

  test("a missing scope shows in the check as not_allowed, naming it, while the other reads still answer", async () => {
    fake.addCustomer({ tokens: 5 }, { customerId: "customer_api_2" });
    const created = await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name: "Scope Co", kindeCustomerId: "customer_api_2" } });
    const id = (created.body as { account: { id: string } }).account.id;
    fake.setScopes("api_client", ["read:billing_entitlements", "read:billing_agreements", "create:meter_usage"]);
    fake.expireTokens();
    const check = await api.call(checkRoute.GET, { path: `/api/v1/provider/accounts/${id}/check?features=tokens`, params: { id } });
    expect(check.body).toMatchObject({
      limits: [{ featureCode: "tokens", limit: { ok: true, value: "5" } }],
      usage: [{ featureCode: "tokens", total: { ok: false, kind: "not_allowed", message: expect.stringContaining("read:meter_usage") } }],
    });
  });
});
