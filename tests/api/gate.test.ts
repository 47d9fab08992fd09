/**
 * The gate's HTTP API through the real route handlers, the real runtime and
 * the real stand-in provider (limits set with POST /api/v1/accounts).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as accountsRoute from "../../app/api/v1/accounts/route";
import * as budgetRoute from "../../app/api/v1/accounts/[id]/budget/route";
import * as jobsRoute from "../../app/api/v1/jobs/route";
import * as jobRoute from "../../app/api/v1/jobs/[id]/route";
import * as chargeRoute from "../../app/api/v1/jobs/[id]/charge/route";
import * as extendRoute from "../../app/api/v1/jobs/[id]/extend/route";
import * as settleRoute from "../../app/api/v1/jobs/[id]/settle/route";
import * as standin from "../../lib/standin/scripts";
import { startApi, type ApiHarness } from "./harness";

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api.close();
});

interface Opened {
  account: { id: string };
  apiKey: { key: string };
}

async function open(body: Record<string, unknown>): Promise<Opened> {
  const created = await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body });
  expect(created.status).toBe(201);
  return created.body as Opened;
}

const reserve = (key: string, body: Record<string, unknown>) => api.call(jobsRoute.POST, { method: "POST", path: "/api/v1/jobs", body, token: key });
const step = (handler: typeof chargeRoute.POST, id: string, what: string, body: Record<string, unknown>, key: string) =>
  api.call(handler, { method: "POST", path: `/api/v1/jobs/${id}/${what}`, params: { id }, body, token: key });

describe("the gate over HTTP", () => {
  test("five jobs of 40,000 against a plan of 100,000: two 201s, three 402s saying what is left", async () => {
    const { account, apiKey } = await open({ name: "Five", limits: { tokens: 100_000 } });
    const results = await Promise.all([1, 2, 3, 4, 5].map((i) => reserve(apiKey.key, { key: `five-${i}`, estimate: 40_000 })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 402, 402, 402]);
    const refused = results.find((r) => r.status === 402)!.body as { error: { code: string; remaining: number; reason: string } };
    expect(refused.error).toMatchObject({ code: "limit_exceeded", remaining: 20_000, reason: "The job needs 40000 and 20000 is left." });
    const started = results.find((r) => r.status === 201)!.body as Record<string, unknown>;
    expect(started).toMatchObject({ status: "running", held: 40_000, feature: "tokens" });
    expect(typeof started.leaseExpiresAt).toBe("string");
    expect([0, 20_000, 60_000]).toContain(started.remaining);

    const budget = await api.call(budgetRoute.GET, { path: `/api/v1/accounts/${account.id}/budget`, params: { id: account.id }, token: apiKey.key });
    expect(budget.status).toBe(200);
    expect(budget.body).toMatchObject({
      budget: { limit: 100_000, used: 0, held: 80_000, remaining: 20_000 },
      limit: { kind: "limited", max: 100_000, source: "standin", state: "fresh", lastError: null },
      admissionsPerMinute: 120,
    });
  });

  test("a job's whole life: reserve, replay (200), charge, extend, settle, settle again, and its timeline", async () => {
    const { apiKey } = await open({ name: "Life", limits: { tokens: 50_000 } });
    const created = await reserve(apiKey.key, { key: "life-1", estimate: 10_000 });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    const replay = await reserve(apiKey.key, { key: "life-1", estimate: 10_000 });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ id, replayed: true });

    expect((await step(chargeRoute.POST, id, "charge", { tokens: 4_000, step: 1 }, apiKey.key)).body).toMatchObject({ outcome: "charged", charged: 4_000, capped: false });
    expect((await step(extendRoute.POST, id, "extend", { tokens: 5_000, step: 2 }, apiKey.key)).body).toMatchObject({ outcome: "extended", granted: 5_000, job: { held: 15_000 } });
    const tooMuch = await step(extendRoute.POST, id, "extend", { tokens: 40_000, step: 3 }, apiKey.key);
    expect(tooMuch.status).toBe(402);
    expect(tooMuch.body).toMatchObject({ error: { code: "limit_exceeded", remaining: 35_000, held: 15_000 } });

    const settled = await step(settleRoute.POST, id, "settle", { used: 9_000, outcome: "completed" }, apiKey.key);
    expect(settled.body).toMatchObject({ outcome: "settled", charged: 9_000, released: 6_000, job: { status: "completed" } });
    const again = await step(settleRoute.POST, id, "settle", { used: 15_000, outcome: "completed" }, apiKey.key);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ outcome: "already_settled", charged: 9_000 });
    const late = await step(chargeRoute.POST, id, "charge", { tokens: 1 }, apiKey.key);
    expect(late.body).toMatchObject({ outcome: "ignored", charged: 0 });

    const read = await api.call(jobRoute.GET, { path: `/api/v1/jobs/${id}`, params: { id }, token: apiKey.key });
    expect((read.body as { events: { kind: string }[] }).events.map((e) => e.kind)).toEqual(["reserved", "charged", "extended", "extend_refused", "settled"]);
  });

  test("a step past the hold answers capped: the worker must stop", async () => {
    const { apiKey } = await open({ name: "Cap", limits: { tokens: 50_000 } });
    const id = ((await reserve(apiKey.key, { key: "cap", estimate: 1_000 })).body as { id: string }).id;
    const capped = await step(chargeRoute.POST, id, "charge", { tokens: 1_500 }, apiKey.key);
    expect(capped.body).toMatchObject({ outcome: "capped", charged: 1_000, capped: true, job: { status: "capped", charged: 1_000, released: 0 } });
  });

  test("another account's job and budget are 404, exactly like ones that do not exist", async () => {
    const a = await open({ name: "Iso A", limits: { tokens: 10_000 } });
    const b = await open({ name: "Iso B", limits: { tokens: 10_000 } });
    const id = ((await reserve(a.apiKey.key, { key: "iso", estimate: 1 })).body as { id: string }).id;
    const theirs = await api.call(jobRoute.GET, { path: `/api/v1/jobs/${id}`, params: { id }, token: b.apiKey.key });
    const missing = await api.call(jobRoute.GET, { path: "/api/v1/jobs/job_00000000000000000000", params: { id: "job_00000000000000000000" }, token: b.apiKey.key });
    expect([theirs.status, missing.status]).toEqual([404, 404]);
    expect((await step(settleRoute.POST, id, "settle", { outcome: "completed" }, b.apiKey.key)).status).toBe(404);
    expect((await api.call(budgetRoute.GET, { path: `/api/v1/accounts/${a.account.id}/budget`, params: { id: a.account.id }, token: b.apiKey.key })).status).toBe(404);
    // An account key cannot reserve for another account by naming it.
    expect((await reserve(b.apiKey.key, { key: "x", estimate: 1, accountId: a.account.id })).status).toBe(404);
  });

  test("the operator reserves by naming the account; without one it is a 400", async () => {
    const { account } = await open({ name: "Op", limits: { tokens: 10_000 } });
    expect((await api.call(jobsRoute.POST, { method: "POST", path: "/api/v1/jobs", body: { key: "op", estimate: 1, accountId: account.id } })).status).toBe(201);
    expect((await api.call(jobsRoute.POST, { method: "POST", path: "/api/v1/jobs", body: { key: "op2", estimate: 1 } })).status).toBe(400);
  });

  test("the rate limit answers 429 with Retry-After", async () => {
    const { apiKey } = await open({ name: "Rate", limits: { tokens: null }, admissionsPerMinute: 3 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await reserve(apiKey.key, { key: `rate-${i}`, estimate: 1 }));
    expect(statuses.map((s) => s.status)).toEqual([201, 201, 201, 429]);
    expect(Number(statuses[3]!.headers.get("retry-after"))).toBeGreaterThanOrEqual(59);
    expect((statuses[3]!.body as { error: { code: string } }).error.code).toBe("rate_limited");
  });

  test("a limit that cannot be read answers 503 limit_unavailable with Retry-After", async () => {
    const { account, apiKey } = await open({ name: "Down", limits: { tokens: 10_000 } });
    const { getRuntime } = await import("../../lib/runtime");
    await getRuntime().engine.run(standin.setFault, { kind: "deny_scope", scope: "read:billing_entitlements" });
    try {
      const refused = await reserve(apiKey.key, { key: "down", estimate: 1 });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("60");
      expect((refused.body as { error: { code: string } }).error.code).toBe("limit_unavailable");
      const budget = await api.call(budgetRoute.GET, { path: `/api/v1/accounts/${account.id}/budget`, params: { id: account.id }, token: apiKey.key });
      expect(budget.body).toMatchObject({ limit: { kind: "unread", state: "unavailable", lastError: expect.stringMatching(/read:billing_entitlements/) } });
    } finally {
      await getRuntime().engine.run(standin.clearFault, { kind: "all" });
    }
  });

  test("bad input is a 400 naming the field; an unknown job id shape is a 404", async () => {
    const { apiKey } = await open({ name: "Bad", limits: { tokens: 10_000 } });
    const bad = await reserve(apiKey.key, { key: "", estimate: 1.5 });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: { message: string } }).error.message).toMatch(/key|estimate/);
    expect((await step(chargeRoute.POST, "nope", "charge", { tokens: 1 }, apiKey.key)).status).toBe(404);
    const badLimits = await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name: "L", limits: { tokens: -1 } } });
    expect(badLimits.status).toBe(400);
  });
});
