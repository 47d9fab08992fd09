/**
 * Sign-in, sign-out, expired and tampered sessions, the first-run setup used
 * once, members acting for their own account, revoked keys refused at once,
 * and per-key rate limits — through the real route handlers.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import * as accountsRoute from "../../app/api/v1/accounts/route";
import * as accountRoute from "../../app/api/v1/accounts/[id]/route";
import * as keysRoute from "../../app/api/v1/accounts/[id]/keys/route";
import * as keyRoute from "../../app/api/v1/accounts/[id]/keys/[keyId]/route";
import * as auditRoute from "../../app/api/v1/audit/route";
import * as setupRoute from "../../app/api/setup/route";
import * as sessionRoute from "../../app/api/session/route";
import * as signoutRoute from "../../app/api/session/signout/route";
import { keyRateLimiter } from "../../lib/http/auth";
import * as keys from "../../lib/keys/scripts";
import { SESSION_TTL_MS } from "../../lib/ops/operator";
import { getRuntime } from "../../lib/runtime";
import { startApi, type ApiHarness } from "./harness";
import { cookieHeader, form, memberOf, PASSWORD, SAME_ORIGIN, sessionCookieOf, setupOperator, setupToken, signIn } from "./people";

let api: ApiHarness;
let operatorCookie: string;
beforeAll(async () => {
  api = await startApi();
  operatorCookie = await setupOperator(api);
});
afterAll(async () => {
  await api.close();
});

async function openAccount(name: string) {
  const created = await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name } });
  return created.body as { account: { id: string }; apiKey: { id: string; key: string } };
}

const asCookie = (cookie: string, extra: Record<string, string> = {}) => ({ token: null, headers: { ...cookieHeader(cookie), ...extra } });

describe("first-run setup", () => {
  test("the setup token made the first operator, and the page is closed for good: a second use changes nothing", async () => {
    const again = await api.call(setupRoute.POST, {
      method: "POST",
      path: "/api/setup",
      token: null,
      ...form({ setupToken: "tb_setup_anything_at_all_0000000000000", email: "eve@example.com", name: "Eve", password: PASSWORD }),
    });
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe("/setup?error=done");
    expect(sessionCookieOf(again.headers)).toBeNull();
    expect((await signIn(api, "eve@example.com", PASSWORD)).headers.get("location")).toBe("/signin?error=1");
    expect(() => setupToken(api)).toThrow(); // the token file is gone once used
  });
});

describe("sign-in and sign-out", () => {
  test("the right password gives a signed, httpOnly, SameSite session cookie with an expiry; it opens operator routes", async () => {
    const answer = await signIn(api, "ANA@example.com", PASSWORD);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/app");
    const setCookie = answer.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^tollbooth_session=v2\.[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200$/);
    const cookie = sessionCookieOf(answer.headers)!;
    expect((await api.call(accountsRoute.GET, { path: "/api/v1/accounts", ...asCookie(cookie) })).status).toBe(200);
  });

  test("a wrong password and an unknown email get the same answer and no cookie", async () => {
    for (const [email, password] of [
      ["ana@example.com", "wrong password here"],
      ["nobody@example.com", PASSWORD],
    ]) {
      const answer = await signIn(api, email!, password!);
      expect(answer.status).toBe(303);
      expect(answer.headers.get("location")).toBe("/signin?error=1");
      expect(answer.headers.get("set-cookie")).toBeNull();
    }
  });

  test("sign-out ends the session on the server: the same cookie is refused afterwards", async () => {
    const cookie = sessionCookieOf((await signIn(api, "ana@example.com", PASSWORD)).headers)!;
    expect((await api.call(accountsRoute.GET, { path: "/api/v1/accounts", ...asCookie(cookie) })).status).toBe(200);
    const out = await api.call(signoutRoute.POST, { method: "POST", path: "/api/session/signout", ...asCookie(cookie, SAME_ORIGIN) });
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toMatch(/^tollbooth_session=; .*Max-Age=0/);
    expect((await api.call(accountsRoute.GET, { path: "/api/v1/accounts", ...asCookie(cookie) })).status).toBe(401);
  });

  test("an expired session is refused (checked on the server, not only by the browser's Max-Age)", async () => {
    const cookie = sessionCookieOf((await signIn(api, "ana@example.com", PASSWORD)).headers)!;
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + SESSION_TTL_MS - 1000);
      expect((await api.call(accountsRoute.GET, { path: "/api/v1/accounts", ...asCookie(cookie) })).status).toBe(200);
      vi.setSystemTime(Date.now() + 2000);
      expect((await api.call(accountsRoute.GET, { path: "/api/v1/accounts", ...asCookie(cookie) })).status).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });

  test("a tampered or forged cookie is refused", async () => {
    const [v, token, mac] = operatorCookie.split(".") as [string, string, string];
    const forged = [
      `${v}.${token}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`,
      `${v}.${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}.${mac}`,
      `v1.${Date.now() + 1e9}.${mac}`,
      "",
      "x".repeat(5000),
    ];
    for (const cookie of forged) expect((await api.call(accountsRoute.GET, { path: "/api/v1/accounts", ...asCookie(cookie) })).status).toBe(401);
  });

  test("a session cookie cannot change anything from another site", async () => {
    const crossSite = await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name: "CSRF" }, ...asCookie(operatorCookie, { host: "127.0.0.1", origin: "https://evil.example" }) });
    expect(crossSite.status).toBe(403);
    const noOrigin = await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name: "CSRF" }, ...asCookie(operatorCookie) });
    expect(noOrigin.status).toBe(403);
    const fetchSite = await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name: "CSRF" }, ...asCookie(operatorCookie, { "sec-fetch-site": "cross-site" }) });
    expect(fetchSite.status).toBe(403);
    const same = await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name: "Same site" }, ...asCookie(operatorCookie, SAME_ORIGIN) });
    expect(same.status).toBe(201);
  });

  test("the session route's DELETE signs out too", async () => {
    const cookie = sessionCookieOf((await signIn(api, "ana@example.com", PASSWORD)).headers)!;
    expect((await api.call(sessionRoute.DELETE, { method: "DELETE", path: "/api/session", ...asCookie(cookie, SAME_ORIGIN) })).status).toBe(204);
    expect((await api.call(accountsRoute.GET, { path: "/api/v1/accounts", ...asCookie(cookie) })).status).toBe(401);
  });
});

describe("members", () => {
  test("a member's session acts for their own account only, and never reaches operator routes", async () => {
    const a = await openAccount("Member A");
    const b = await openAccount("Member B");
    const cookie = await memberOf(api, a.account.id, "mia@a.test");
    expect((await api.call(accountRoute.GET, { path: `/api/v1/accounts/${a.account.id}`, params: { id: a.account.id }, ...asCookie(cookie) })).status).toBe(200);
    expect((await api.call(accountRoute.GET, { path: `/api/v1/accounts/${b.account.id}`, params: { id: b.account.id }, ...asCookie(cookie) })).status).toBe(404);
    expect((await api.call(accountsRoute.GET, { path: "/api/v1/accounts", ...asCookie(cookie) })).status).toBe(403);
    expect((await api.call(auditRoute.GET, { path: "/api/v1/audit", ...asCookie(cookie) })).status).toBe(403);
    const memberSignIn = await signIn(api, "mia@a.test", PASSWORD);
    expect(memberSignIn.headers.get("location")).toBe("/account");
  });
});

describe("API keys", () => {
  test("a key is shown once at creation, listed by prefix and last four, and refused from the request after its revocation", async () => {
    const { account } = await openAccount("Keyed");
    const made = await api.call(keysRoute.POST, { method: "POST", path: `/api/v1/accounts/${account.id}/keys`, params: { id: account.id }, body: {} });
    expect(made.status).toBe(201);
    const { apiKey } = made.body as { apiKey: { id: string; key: string; prefix: string; last4: string } };
    expect(apiKey.key.startsWith(apiKey.prefix)).toBe(true);
    expect(apiKey.key.endsWith(apiKey.last4)).toBe(true);

    const listed = await api.call(keysRoute.GET, { path: `/api/v1/accounts/${account.id}/keys`, params: { id: account.id }, token: apiKey.key });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain(apiKey.key);
    expect(JSON.stringify(listed.body)).not.toMatch(/[0-9a-f]{64}/);

    const read = () => api.call(accountRoute.GET, { path: `/api/v1/accounts/${account.id}`, params: { id: account.id }, token: apiKey.key });
    expect((await read()).status).toBe(200);
    const revoked = await api.call(keyRoute.DELETE, { method: "DELETE", path: `/api/v1/accounts/${account.id}/keys/${apiKey.id}`, params: { id: account.id, keyId: apiKey.id } });
    expect(revoked.status).toBe(200);
    const after = await read();
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ error: { code: "unauthorized" } });

    const log = (await api.call(auditRoute.GET, { path: `/api/v1/audit?accountId=${account.id}` })).body as { entries: { action: string; actorLabel: string }[] };
    expect(log.entries.map((e) => e.action)).toEqual(["keys.revoke", "keys.create", "accounts.create"]);
    expect(log.entries[0]!.actorLabel).toBe("operator token");
  });

  test("each key has its own rate: past it, 429 with Retry-After and the error shape; another key is unaffected", async () => {
    const { account } = await openAccount("Limited");
    const slow = (await api.call(keysRoute.POST, { method: "POST", path: `/api/v1/accounts/${account.id}/keys`, params: { id: account.id }, body: { ratePerMinute: 3 } })).body as {
      apiKey: { key: string };
    };
    const other = (await api.call(keysRoute.POST, { method: "POST", path: `/api/v1/accounts/${account.id}/keys`, params: { id: account.id }, body: { ratePerMinute: 3 } })).body as {
      apiKey: { key: string };
    };
    const read = (key: string) => api.call(accountRoute.GET, { path: `/api/v1/accounts/${account.id}`, params: { id: account.id }, token: key });
    for (let i = 0; i < 3; i++) expect((await read(slow.apiKey.key)).status).toBe(200);
    const limited = await read(slow.apiKey.key);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited.body).toMatchObject({ error: { code: "rate_limited", message: expect.stringContaining("3 requests a minute") } });
    expect((await read(other.apiKey.key)).status).toBe(200);
    expect(keyRateLimiter().size()).toBeGreaterThan(0);
  });

  test("last-used is written at most once a minute per key, not once per request", async () => {
    const { account, apiKey } = await openAccount("Touched");
    const engine = getRuntime().engine;
    const writes = vi.spyOn(engine, "run");
    for (let i = 0; i < 5; i++) await api.call(accountRoute.GET, { path: `/api/v1/accounts/${account.id}`, params: { id: account.id }, token: apiKey.key });
    const touches = writes.mock.calls.filter(([script]) => script === keys.touch).length;
    writes.mockRestore();
    expect(touches).toBe(1);
    const listed = (await api.call(keysRoute.GET, { path: `/api/v1/accounts/${account.id}/keys`, params: { id: account.id } })).body as { keys: { lastUsedAtMs: number | null }[] };
    expect(listed.keys[0]!.lastUsedAtMs).not.toBeNull();
  });
});

describe("account edits", () => {
  test("the operator edits an account; a bad anchor is a 400 naming the field and changes nothing", async () => {
    const { account } = await openAccount("Editable");
    const ok = await api.call(accountRoute.PATCH, { method: "PATCH", path: `/api/v1/accounts/${account.id}`, params: { id: account.id }, body: { name: "Edited", kindeCustomerId: "customer_edit" } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ account: { name: "Edited", kindeCustomerId: "customer_edit" } });
    const bad = await api.call(accountRoute.PATCH, { method: "PATCH", path: `/api/v1/accounts/${account.id}`, params: { id: account.id }, body: { name: "Nope", cycleAnchorMs: Date.UTC(2026, 0, 31) } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: "invalid_input", message: expect.stringContaining("cycleAnchorMs") } });
    const now = (await api.call(accountRoute.GET, { path: `/api/v1/accounts/${account.id}`, params: { id: account.id } })).body as { account: { name: string } };
    expect(now.account.name).toBe("Edited");
  });
});
