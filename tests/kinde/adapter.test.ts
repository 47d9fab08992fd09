/**
 * The Kinde adapter against the fake Kinde server (real HTTP): what the
 * contract suite cannot see from outside — one billed token for many callers,
 * renewal on a 401, the pause after a 429, timeouts, paging, the meter read
 * across cycles, the webhook key set, and no secret in any message or log.
 */
import { jwtVerify } from "jose";
import { afterEach, describe, expect, test, vi } from "vitest";
import { cycleNameOf } from "../../lib/provider/cycle";
import { KindeProvider } from "../../lib/provider/kinde/provider";
import { isProviderError, ProviderError, type ProviderAccount } from "../../lib/provider/port";
import type { KindeSettings } from "../../lib/provider/settings";
import { FAKE_CLIENT, kindeSettingsFor } from "../contract/providers/kinde";
import { startFakeKinde, type FakeKinde, type FakeKindeOptions } from "../fakes/kinde-server";

let fakes: FakeKinde[] = [];
afterEach(async () => {
  for (const f of fakes) await f.close();
  fakes = [];
  vi.restoreAllMocks();
});

async function setup(options: { fake?: FakeKindeOptions; settings?: Partial<KindeSettings>; timeoutMs?: number; fetch?: typeof fetch } = {}) {
  const fake = await startFakeKinde(options.fake);
  fakes.push(fake);
  // A generous timeout: these tests share a busy machine. The timeout tests make their own impatient adapter.
  const kinde = new KindeProvider({ settings: kindeSettingsFor(fake, options.settings), timeoutMs: options.timeoutMs ?? 10_000, nowMs: fake.now, fetch: options.fetch });
  const impatient = (timeoutMs: number) => new KindeProvider({ settings: kindeSettingsFor(fake, options.settings), timeoutMs, nowMs: fake.now, fetch: options.fetch });
  const customer = (limits: Record<string, number | null> = { tokens: 100_000, clicks: 1_000 }, anchorMs?: number): ProviderAccount => {
    const { customerId } = fake.addCustomer(limits, { anchorMs });
    return { accountId: "acct_00000000000000000001", customerId, agreementId: null };
  };
  const count = (path: string) => fake.requests.filter((r) => r.path === path).length;
  return { fake, kinde, impatient, customer, count };
}

async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    (v) => new Error(`expected a ProviderError, got ${JSON.stringify(v)}`),
    (e: unknown) => e,
  );
  if (!isProviderError(error)) throw error;
  return error;
}

describe("M2M token", () => {
  test("100 concurrent calls share one token request", async () => {
    const { kinde, customer, fake } = await setup({ settings: { pageSize: 100 } });
    const account = customer();
    const limits = await Promise.all(Array.from({ length: 100 }, () => kinde.readLimit(account, "tokens")));
    expect(limits.every((l) => l.kind === "limited" && l.max === 100_000)).toBe(true);
    expect(fake.tokenRequests()).toBe(1);
    expect(kinde.tokens.requests).toBe(1);
  });

  test("the token is kept until shortly before expires_in, then renewed once", async () => {
    const { kinde, customer, fake } = await setup({ fake: { tokenLifetimeSeconds: 3_600 } });
    const account = customer();
    await kinde.readLimit(account, "tokens");
    fake.advance(3_600_000 - 61_000);
    await kinde.readLimit(account, "tokens");
    expect(fake.tokenRequests()).toBe(1);
    fake.advance(2_000); // now within a minute of expiry
    await Promise.all([kinde.readLimit(account, "tokens"), kinde.readLimit(account, "clicks")]);
    expect(fake.tokenRequests()).toBe(2);
  });

  test("a 401 drops the token, gets one new token and repeats the call once", async () => {
    const { kinde, customer, fake, count } = await setup();
    const account = customer();
    await kinde.readLimit(account, "tokens");
    fake.expireTokens();
    expect(await kinde.readLimit(account, "tokens")).toEqual({ kind: "limited", max: 100_000 });
    expect(fake.tokenRequests()).toBe(2);
    expect(count("/api/v1/billing/entitlements")).toBe(3); // the first read, the refused one, and its one repeat
  });

  test("a second 401 in a row is not_allowed, not an endless loop", async () => {
    const realFetch = globalThis.fetch;
    const fetch401: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes("/api/")) return new Response(JSON.stringify({ errors: [{ code: "UNAUTHORIZED", message: "no" }] }), { status: 401 });
      return realFetch(input, init);
    };
    const { kinde, customer, fake } = await setup({ fetch: fetch401 });
    const error = await providerError(kinde.readLimit(customer(), "tokens"));
    expect(error.kind).toBe("not_allowed");
    expect(fake.tokenRequests()).toBe(2);
  });

  test("refused credentials are not_allowed with what to fix, and no message or log holds the secret or a token", async () => {
    const logged: string[] = [];
    for (const method of ["log", "info", "warn", "error", "debug"] as const) vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    const { kinde, customer } = await setup({ settings: { clientSecret: "wrong-secret-do-not-print" } });
    const error = await providerError(kinde.readLimit(customer(), "tokens"));
    expect(error.kind).toBe("not_allowed");
    expect(error.message).toMatch(/invalid_client.*KINDE_M2M_CLIENT_SECRET/);
    expect(JSON.stringify({ message: error.message, logged })).not.toContain("wrong-secret-do-not-print");

    const { kinde: good, customer: customer2, fake } = await setup();
    await good.readLimit(customer2(), "tokens");
    fake.setScopes(FAKE_CLIENT.clientId, []);
    fake.expireTokens();
    const denied = await providerError(good.readLimit(customer2(), "tokens"));
    expect(denied.message).toContain("read:billing_entitlements");
    expect(denied.message).not.toMatch(/eyJ/); // no JWT
    expect(JSON.stringify(logged)).not.toContain(FAKE_CLIENT.clientSecret);
  });

  test("a wrong audience is not_allowed and says so", async () => {
    const { kinde, customer } = await setup({ settings: { audience: "https://elsewhere.example/api" } });
    const error = await providerError(kinde.readLimit(customer(), "tokens"));
    expect(error).toMatchObject({ kind: "not_allowed", message: expect.stringMatching(/unauthorized_client/) });
  });
});

describe("429 and timeouts", () => {
  test("a 429 pauses the adapter for RateLimit-Reset seconds: calls in the pause fail at once without a request", async () => {
    const { kinde, customer, fake } = await setup();
    const account = customer();
    await kinde.readLimit(account, "tokens");
    fake.throttle(1, 3);
    expect(await providerError(kinde.readLimit(account, "tokens"))).toMatchObject({ kind: "retry_later", retryAfterMs: 3_000 });
    const before = fake.requests.length;
    fake.advance(1_000);
    const paused = await providerError(kinde.readLimit(account, "tokens"));
    expect(paused.kind).toBe("retry_later");
    // The fake's clock is real time moved on, so a few milliseconds may have passed as well.
    expect(paused.retryAfterMs).toBeGreaterThan(1_500);
    expect(paused.retryAfterMs).toBeLessThanOrEqual(2_000);
    expect(fake.requests.length).toBe(before);
    fake.advance(2_000);
    expect(await kinde.readLimit(account, "tokens")).toEqual({ kind: "limited", max: 100_000 });
  });

  test("a 429 without RateLimit-Reset waits a second", async () => {
    const realFetch = globalThis.fetch;
    let throttled = false;
    const fetch429: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes("/api/") && !throttled) {
        throttled = true;
        return new Response("", { status: 429 });
      }
      return realFetch(input, init);
    };
    const { kinde, customer } = await setup({ fetch: fetch429 });
    expect(await providerError(kinde.readLimit(customer(), "tokens"))).toMatchObject({ kind: "retry_later", retryAfterMs: 1_000 });
  });

  test("a call with no answer gives up at the timeout: a read is unreadable, a write retry_later", async () => {
    const { kinde, impatient, customer, fake } = await setup();
    const account = customer();
    const agreement = (await kinde.currentAgreement(account))!;
    const cycle = cycleNameOf(agreement.currentPeriodStartMs!);
    const quick = impatient(150);
    await quick.tokens.get(); // its token first, so the hung request is the API call
    fake.hang(1);
    const read = await providerError(quick.readLimit(account, "tokens"));
    expect(read).toMatchObject({ kind: "unreadable", message: expect.stringMatching(/no answer within 150 ms/) });
    fake.hang(1);
    expect(await providerError(quick.setUsage({ ...account, agreementId: agreement.id }, "clicks", cycle, 3))).toMatchObject({ kind: "retry_later" });
    expect(await kinde.readUsage(account, "clicks", cycle)).toBe(0);
  });

  test("a token request with no answer is retry_later, and the next call asks again", async () => {
    const { impatient, customer, fake } = await setup();
    const account = customer();
    const quick = impatient(150);
    fake.hang(1);
    expect(await providerError(quick.readLimit(account, "tokens"))).toMatchObject({ kind: "retry_later" });
    fake.stopHanging();
    await expect.poll(() => quick.readLimit(account, "tokens").catch((e: unknown) => e), { timeout: 30_000 }).toEqual({ kind: "limited", max: 100_000 });
    expect(fake.tokenRequests()).toBeGreaterThanOrEqual(2);
  });
});

describe("entitlements, agreements and the meter", () => {
  test("entitlements are read over every page: a feature on the third page is found", async () => {
    const { kinde, customer, count } = await setup({ settings: { pageSize: 2 } });
    const account = customer({ a: 1, b: 2, c: 3, d: 4, seats: 5 });
    expect(await kinde.readLimit(account, "seats")).toEqual({ kind: "limited", max: 5 });
    expect(count("/api/v1/billing/entitlements")).toBe(3);
  });

  test("an account without a Kinde customer id is not_found, before any request", async () => {
    const { kinde, fake } = await setup();
    const error = await providerError(kinde.readLimit({ accountId: "acct_x", customerId: null, agreementId: null }, "tokens"));
    expect(error).toMatchObject({ kind: "not_found", message: expect.stringMatching(/kindeCustomerId/) });
    expect(fake.requests).toHaveLength(0);
  });

  test("the current agreement's period start is the cycle anchor's current cycle", async () => {
    const { kinde, customer, fake } = await setup();
    const anchorMs = Date.UTC(2026, 0, 20, 15, 29);
    fake.advance(Date.UTC(2026, 2, 25) - fake.now());
    const agreement = await kinde.currentAgreement(customer({ tokens: 1 }, anchorMs));
    expect(agreement!.currentPeriodStartMs).toBe(Date.UTC(2026, 2, 20, 15, 29));
  });

  test("a write after the cycle closed lands in the next cycle; the closed cycle still reads its own total", async () => {
    const { kinde, customer, fake } = await setup();
    const account = customer({ clicks: 1_000 });
    const first = cycleNameOf((await kinde.currentAgreement(account))!.currentPeriodStartMs!);
    await kinde.setUsage(account, "clicks", first, 100);
    fake.advance(32 * 86_400_000);
    const second = cycleNameOf((await kinde.currentAgreement(account))!.currentPeriodStartMs!);
    expect(second).not.toBe(first);
    // The reporter still believes it is writing `first`; Kinde puts it in the cycle that is current now.
    await kinde.setUsage(account, "clicks", first, 130);
    expect(await kinde.readUsage(account, "clicks", second)).toBe(130);
    expect(await kinde.readUsage(account, "clicks", first)).toBe(100); // read with all_cycles=true
  });

  test("the meter read turned off, or missing at Kinde, is unreadable — never 0", async () => {
    const off = await setup({ settings: { meterRead: null } });
    const a = off.customer({ clicks: 1 });
    const cycle = cycleNameOf((await off.kinde.currentAgreement(a))!.currentPeriodStartMs!);
    expect(await providerError(off.kinde.readUsage(a, "clicks", cycle))).toMatchObject({ kind: "unreadable", message: expect.stringMatching(/KINDE_METER_READ_PATH=off/) });

    const missing = await setup({ fake: { meterReadPath: null } });
    const b = missing.customer({ clicks: 1 });
    expect(await providerError(missing.kinde.readUsage(b, "clicks", cycle))).toMatchObject({ kind: "unreadable" });
  });

  test("a write for an unknown agreement is rejected, not retried forever", async () => {
    const { kinde, customer } = await setup();
    const account = { ...customer({ clicks: 1 }), agreementId: "agreement_gone" };
    expect(await providerError(kinde.setUsage(account, "clicks", "2026-01", 1))).toMatchObject({ kind: "rejected", message: expect.stringMatching(/AGREEMENT_NOT_FOUND/) });
  });
});

describe("webhook keys", () => {
  test("a webhook signed by Kinde verifies against the domain's key set", async () => {
    const { kinde, fake } = await setup();
    const token = await fake.signWebhook({ type: "customer.plan_changed", event_id: "event_1", timestamp: "t", event_timestamp: "t", source: "admin", data: {} });
    const { payload } = await jwtVerify(token, kinde.webhookKeys(), { algorithms: ["RS256"] });
    expect(payload.type).toBe("customer.plan_changed");
    // The key set is cached: a second verification fetches nothing.
    const fetched = fake.requests.filter((r) => r.path.startsWith("/.well-known")).length;
    await jwtVerify(token, kinde.webhookKeys(), { algorithms: ["RS256"] });
    expect(fake.requests.filter((r) => r.path.startsWith("/.well-known")).length).toBe(fetched);
  });

  test("when /.well-known/jwks is missing, /.well-known/jwks.json is used", async () => {
    const { kinde, fake } = await setup({ fake: { jwksPaths: ["/.well-known/jwks.json"] } });
    const token = await fake.signWebhook({ type: "x" });
    await jwtVerify(token, kinde.webhookKeys(), { algorithms: ["RS256"] });
    expect(fake.requests.map((r) => r.path)).toEqual(["/.well-known/jwks", "/.well-known/jwks.json"]);
  });

  test("a token signed by another key is refused", async () => {
    const { kinde } = await setup();
    const other = await startFakeKinde();
    fakes.push(other);
    await expect(jwtVerify(await other.signWebhook({ type: "x" }), kinde.webhookKeys(), { algorithms: ["RS256"] })).rejects.toThrow();
  });
});
