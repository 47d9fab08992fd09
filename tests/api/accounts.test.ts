import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as accountsRoute from "../../app/api/v1/accounts/route";
import * as accountRoute from "../../app/api/v1/accounts/[id]/route";
import { startApi, type ApiHarness } from "./harness";

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api.close();
});

describe("POST /api/v1/accounts", () => {
  test("the operator opens an account and gets its API key once; the key reads its own account", async () => {
    const created = await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name: "Acme" } });
    expect(created.status).toBe(201);
    const { account, apiKey } = created.body as { account: { id: string; name: string }; apiKey: { id: string; key: string } };
    expect(account.name).toBe("Acme");
    expect(apiKey.key).toMatch(/^tb_live_/);

    const own = await api.call(accountRoute.GET, { path: `/api/v1/accounts/${account.id}`, params: { id: account.id }, token: apiKey.key });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ account: { id: account.id, name: "Acme" } });
  });

  test("a key of one account gets 404 for another account, the same as for one that does not exist", async () => {
    const a = (await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name: "A" } })).body as { apiKey: { key: string } };
    const b = (await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name: "B" } })).body as { account: { id: string } };
    const other = await api.call(accountRoute.GET, { path: `/api/v1/accounts/${b.account.id}`, params: { id: b.account.id }, token: a.apiKey.key });
    const missing = await api.call(accountRoute.GET, { path: "/api/v1/accounts/acct_00000000000000000000", params: { id: "acct_00000000000000000000" } });
    expect(other.status).toBe(404);
    expect(missing.status).toBe(404);
    expect((other.body as { error: { code: string } }).error.code).toBe("not_found");
  });

  test("an account key cannot open accounts; no key at all is 401", async () => {
    const a = (await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name: "A2" } })).body as { apiKey: { key: string } };
    expect((await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name: "X" }, token: a.apiKey.key })).status).toBe(403);
    expect((await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name: "X" }, token: null })).status).toBe(401);
  });

  test("bad input is a 400 naming the field, and no account is written", async () => {
    const before = ((await api.call(accountsRoute.GET, { path: "/api/v1/accounts?limit=200" })).body as { accounts: unknown[] }).accounts.length;
    const bad = await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name: 42, extra: true } });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: { message: string } }).error.message).toMatch(/name/);
    const notJson = await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", rawBody: "{nope", headers: { "content-type": "application/json" } });
    expect(notJson.status).toBe(400);
    const after = ((await api.call(accountsRoute.GET, { path: "/api/v1/accounts?limit=200" })).body as { accounts: unknown[] }).accounts.length;
    expect(after).toBe(before);
  });
});
