/**
 * The provider contract: one set of scenarios, run against every
 * implementation of the BillingProvider port — the stand-in on both engines,
 * and the Kinde adapter against the fake Kinde server (real HTTP). What the
 * gate, the meter and the inbox rely on is stated here once.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { cycleNameOf } from "../../lib/provider/cycle";
import { isProviderError, ProviderError, type BillingProvider, type ProviderAccount } from "../../lib/provider/port";
import { makeConvex, makeSqlite } from "./engines";
import { kindeUnderTest } from "./providers/kinde";
import { standinUnderTest } from "./providers/standin";
import type { ProviderUnderTest } from "./providers/types";

const implementations: [string, () => Promise<ProviderUnderTest>][] = [
  ["stand-in on sqlite", () => standinUnderTest(makeSqlite)],
  ["stand-in on convex", () => standinUnderTest(makeConvex)],
  ["kinde adapter against the fake Kinde server", () => kindeUnderTest()],
];

async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    const value = await promise;
    throw new Error(`expected a ProviderError, got the answer ${JSON.stringify(value)}`);
  } catch (error) {
    if (!isProviderError(error)) throw error;
    return error;
  }
}

async function currentCycle(provider: BillingProvider, account: ProviderAccount): Promise<string> {
  const agreement = await provider.currentAgreement(account);
  expect(agreement?.currentPeriodStartMs).toEqual(expect.any(Number));
  return cycleNameOf(agreement!.currentPeriodStartMs!);
}

describe.each(implementations)("billing provider contract: %s", (_name, make) => {
  let under: ProviderUnderTest;
  let provider: BillingProvider;
  beforeEach(async () => {
    under = await make();
    provider = under.provider;
  });
  afterEach(async () => {
    await under.cleanup();
  });

  test("readLimit gives a limited feature's maximum", async () => {
    const account = await under.customer({ tokens: 100_000, clicks: 1_000 });
    expect(await provider.readLimit(account, "tokens")).toEqual({ kind: "limited", max: 100_000 });
    expect(await provider.readLimit(account, "clicks")).toEqual({ kind: "limited", max: 1_000 });
  });

  test("a null maximum reads as unlimited, never as 0", async () => {
    const account = await under.customer({ tokens: null });
    expect(await provider.readLimit(account, "tokens")).toEqual({ kind: "unlimited" });
  });

  test("a feature the plan does not grant is not_found, not a limit of 0", async () => {
    const account = await under.customer({ tokens: 10 });
    const error = await providerError(provider.readLimit(account, "seats"));
    expect(error.kind).toBe("not_found");
    expect(error.message).toMatch(/seats/);
  });

  test("currentAgreement gives an agreement id, its plan and the start of the current cycle", async () => {
    const account = await under.customer({ tokens: 10 });
    const agreement = await provider.currentAgreement(account);
    expect(agreement).toMatchObject({ id: expect.stringMatching(/^agreement_/), planCode: expect.any(String) });
    expect(agreement!.currentPeriodStartMs).toBeLessThanOrEqual(Date.now());
    // Asking again gives the same agreement.
    expect(await provider.currentAgreement(account)).toEqual(agreement);
  });

  test("setUsage is absolute: repeating a total changes nothing, a new total replaces the old", async () => {
    const account = await under.customer({ clicks: 1_000 });
    const cycle = await currentCycle(provider, account);
    await provider.setUsage(account, "clicks", cycle, 500);
    await provider.setUsage(account, "clicks", cycle, 500);
    expect(await provider.readUsage(account, "clicks", cycle)).toBe(500);
    await provider.setUsage(account, "clicks", cycle, 420);
    expect(await provider.readUsage(account, "clicks", cycle)).toBe(420);
  });

  test("readUsage gives back exactly what was set, feature by feature", async () => {
    const account = await under.customer({ clicks: 1_000, tokens: 100_000 });
    const cycle = await currentCycle(provider, account);
    await provider.setUsage(account, "clicks", cycle, 8_457);
    await provider.setUsage(account, "tokens", cycle, 31_200);
    expect(await provider.readUsage(account, "clicks", cycle)).toBe(8_457);
    expect(await provider.readUsage(account, "tokens", cycle)).toBe(31_200);
  });

  test("a cycle never written reads as 0, because the provider says so", async () => {
    const account = await under.customer({ clicks: 1_000 });
    const cycle = await currentCycle(provider, account);
    expect(await provider.readUsage(account, "clicks", cycle)).toBe(0);
  });

  test("a 429 is retry_later with the wait from RateLimit-Reset, and calls work again after it", async () => {
    const account = await under.customer({ tokens: 100 });
    await under.throttle(1, 7);
    const error = await providerError(provider.readLimit(account, "tokens"));
    expect(error.kind).toBe("retry_later");
    expect(error.retryAfterMs).toBe(7_000);
    await under.passTime(7_000);
    expect(await provider.readLimit(account, "tokens")).toEqual({ kind: "limited", max: 100 });
  });

  test("a throttled write is retry_later too, and writes nothing", async () => {
    const account = await under.customer({ clicks: 1_000 });
    const cycle = await currentCycle(provider, account);
    await under.throttle(1, 2);
    const error = await providerError(provider.setUsage(account, "clicks", cycle, 5));
    expect(error.kind).toBe("retry_later");
    expect(error.retryAfterMs).toBe(2_000);
    await under.passTime(2_000);
    expect(await provider.readUsage(account, "clicks", cycle)).toBe(0);
  });

  test("a missing scope is not_allowed, and the error names the scope", async () => {
    const account = await under.customer({ tokens: 100 });
    await under.denyScope("read:billing_entitlements");
    const error = await providerError(provider.readLimit(account, "tokens"));
    expect(error.kind).toBe("not_allowed");
    expect(error.scope).toBe("read:billing_entitlements");
    expect(error.message).toContain("read:billing_entitlements");
  });

  test("a missing write scope names create:meter_usage", async () => {
    const account = await under.customer({ clicks: 10 });
    const cycle = await currentCycle(provider, account);
    await under.denyScope("create:meter_usage");
    const error = await providerError(provider.setUsage(account, "clicks", cycle, 1));
    expect(error).toMatchObject({ kind: "not_allowed", scope: "create:meter_usage" });
  });

  test("a provider that stops answering makes readUsage unreadable — never 0", async () => {
    const account = await under.customer({ clicks: 1_000 });
    const cycle = await currentCycle(provider, account);
    await provider.setUsage(account, "clicks", cycle, 12);
    await under.stopAnswering();
    const error = await providerError(provider.readUsage(account, "clicks", cycle));
    expect(error.kind).toBe("unreadable");
  });

  test("a write to a provider that stops answering is retry_later (an absolute write is safe to send again)", async () => {
    const account = await under.customer({ clicks: 1_000 });
    const cycle = await currentCycle(provider, account);
    await under.stopAnswering();
    const error = await providerError(provider.setUsage(account, "clicks", cycle, 12));
    expect(error.kind).toBe("retry_later");
  });
});
