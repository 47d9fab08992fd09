/**
 * What only the stand-in does, on both engines: fault switches consumed
 * atomically, drift, delta records, per-account limits, plan changes, and
 * webhooks signed with its own key and verifiable against its key set.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { decodeProtectedHeader, jwtVerify } from "jose";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import * as accounts from "../../lib/accounts/scripts";
import type { Engine } from "../../lib/engine/types";
import { cycleNameOf } from "../../lib/provider/cycle";
import type { ProviderAccount } from "../../lib/provider/port";
import { StandinProvider } from "../../lib/standin/provider";
import * as standin from "../../lib/standin/scripts";
import { sendStandinWebhook } from "../../lib/standin/webhooks";
import { engines, type EngineUnderTest } from "./engines";

describe.each(engines)("stand-in provider on %s", (_name, make) => {
  let under: EngineUnderTest;
  let engine: Engine;
  let provider: StandinProvider;
  let account: ProviderAccount;
  let cycle: string;
  beforeEach(async () => {
    under = await make();
    engine = under.engine;
    provider = new StandinProvider(engine, { callTimeoutMs: 1_000, wait: async () => {} });
    const created = await engine.run(accounts.create, { name: "Acme" });
    account = { accountId: created.id, customerId: null, agreementId: null };
    cycle = cycleNameOf((await provider.currentAgreement(account))!.currentPeriodStartMs!);
  });
  afterEach(async () => {
    await under.cleanup();
  });

  test("a new account is on the Free plan of the catalog: 100,000 tokens and 1,000 clicks", async () => {
    expect(await provider.readLimit(account, "tokens")).toEqual({ kind: "limited", max: 100_000 });
    expect(await provider.readLimit(account, "clicks")).toEqual({ kind: "limited", max: 1_000 });
    expect((await provider.currentAgreement(account))!.planCode).toBe("free");
  });

  test("an operator's limit replaces the plan's, null is unlimited, and clearing it restores the plan", async () => {
    await engine.run(standin.setLimit, { accountId: account.accountId, featureCode: "tokens", limitMax: 250 });
    expect(await provider.readLimit(account, "tokens")).toEqual({ kind: "limited", max: 250 });
    await engine.run(standin.setLimit, { accountId: account.accountId, featureCode: "tokens", limitMax: null });
    expect(await provider.readLimit(account, "tokens")).toEqual({ kind: "unlimited" });
    const view = await engine.run(standin.limits, { accountId: account.accountId });
    expect(view.features.find((f) => f.featureCode === "tokens")).toEqual({ featureCode: "tokens", planLimitMax: 100_000, overrideLimitMax: null, effectiveLimitMax: null });
    expect(await engine.run(standin.clearLimit, { accountId: account.accountId, featureCode: "tokens" })).toEqual({ cleared: true });
    expect(await provider.readLimit(account, "tokens")).toEqual({ kind: "limited", max: 100_000 });
  });

  test("a plan change makes a new agreement on the new plan and keeps the cycle anchor", async () => {
    const before = (await provider.currentAgreement(account))!;
    const { agreement, previousPlanCode } = await engine.run(standin.changePlan, { accountId: account.accountId, planCode: "pro" });
    expect(previousPlanCode).toBe("free");
    expect(agreement.id).not.toBe(before.id);
    expect(agreement.currentPeriodStartMs).toBe(before.currentPeriodStartMs);
    expect(await provider.readLimit(account, "tokens")).toEqual({ kind: "limited", max: 1_000_000 });
    // The same plan again changes nothing.
    expect((await engine.run(standin.changePlan, { accountId: account.accountId, planCode: "pro" })).agreement.id).toBe(agreement.id);
  });

  test("records are kept as written: delta adds, absolute replaces, and the total is their fold", async () => {
    await engine.run(standin.setUsage, { accountId: account.accountId, featureCode: "clicks", cycle, kind: "delta", value: 1 });
    await engine.run(standin.setUsage, { accountId: account.accountId, featureCode: "clicks", cycle, kind: "delta", value: 1 });
    expect(await provider.readUsage(account, "clicks", cycle)).toBe(2);
    await provider.setUsage(account, "clicks", cycle, 10);
    await engine.run(standin.setUsage, { accountId: account.accountId, featureCode: "clicks", cycle, kind: "delta", value: 3 });
    const { total, records } = await engine.run(standin.meterRecords, { accountId: account.accountId, featureCode: "clicks", cycle, limit: 10 });
    expect(total).toBe(13);
    expect(records.map((r) => [r.kind, r.value, r.totalAfter])).toEqual([
      ["delta", 3, 13],
      ["absolute", 10, 10],
      ["delta", 1, 2],
      ["delta", 1, 1],
    ]);
  });

  test("fail the next 2 writes: exactly 2 of 5 concurrent writes fail, then the switch is off", async () => {
    await engine.run(standin.setFault, { kind: "fail_writes", count: 2 });
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => provider.setUsage(account, "clicks", cycle, n)));
    const failed = results.filter((r) => r.status === "rejected");
    expect(failed).toHaveLength(2);
    for (const f of failed) expect((f as PromiseRejectedResult).reason).toMatchObject({ kind: "retry_later" });
    expect((await engine.run(standin.faults, {})).faults).toEqual([]);
    await provider.setUsage(account, "clicks", cycle, 9);
    expect(await provider.readUsage(account, "clicks", cycle)).toBe(9);
  });

  test("drift moves the next write's meter by N and leaves a record that says so", async () => {
    await engine.run(standin.setFault, { kind: "drift", amount: 426 });
    expect((await engine.run(standin.faults, {})).faults).toMatchObject([{ kind: "drift", amount: 426, remaining: 1 }]);
    await provider.setUsage(account, "clicks", cycle, 8_031);
    expect(await provider.readUsage(account, "clicks", cycle)).toBe(8_457);
    const { records } = await engine.run(standin.meterRecords, { accountId: account.accountId, featureCode: "clicks", cycle, limit: 1 });
    expect(records[0]).toMatchObject({ source: "drift", kind: "delta", value: 426 });
    await provider.setUsage(account, "clicks", cycle, 8_031);
    expect(await provider.readUsage(account, "clicks", cycle)).toBe(8_031);
  });

  test("429 for 2 calls: each answers retry_later with the reset, the third gets through", async () => {
    await engine.run(standin.setFault, { kind: "rate_limit", count: 2, resetSeconds: 12 });
    for (let i = 0; i < 2; i++) await expect(provider.readLimit(account, "tokens")).rejects.toMatchObject({ kind: "retry_later", retryAfterMs: 12_000 });
    expect(await provider.readLimit(account, "tokens")).toEqual({ kind: "limited", max: 100_000 });
  });

  test("stop answering: a read waits the call timeout, then is unreadable; clearing the switch restores answers", async () => {
    const waited: number[] = [];
    const slow = new StandinProvider(engine, { callTimeoutMs: 2_500, wait: async (ms) => void waited.push(ms) });
    await engine.run(standin.setFault, { kind: "hang", count: null });
    await expect(slow.readUsage(account, "clicks", cycle)).rejects.toMatchObject({ kind: "unreadable" });
    await expect(slow.readLimit(account, "tokens")).rejects.toMatchObject({ kind: "unreadable" });
    expect(waited).toEqual([2_500, 2_500]);
    expect((await engine.run(standin.clearFault, { kind: "all" })).cleared).toEqual(["hang"]);
    expect(await slow.readUsage(account, "clicks", cycle)).toBe(0);
  });

  test("bad switch settings are refused with the field named", async () => {
    await expect(engine.run(standin.setFault, { kind: "drift", amount: 0 } as never)).rejects.toMatchObject({ code: "invalid_input" });
    await expect(engine.run(standin.setFault, { kind: "deny_scope", scope: "read:everything" } as never)).rejects.toThrow(/scope/);
  });

  test("a webhook signed by the stand-in verifies against its key set, and a plan event moves the stand-in first", async () => {
    const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
    const server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        received.push({ headers: req.headers, body });
        res.writeHead(200).end("stored");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/kinde`;
      const ctx = { run: engine.run.bind(engine), nowMs: Date.now };
      const result = await sendStandinWebhook(ctx, provider, { intakeUrl: url, type: "customer.plan_changed", accountId: account.accountId, planCode: "pro", copies: 3 });
      expect(result.deliveries.map((d) => d.status)).toEqual([200, 200, 200]);
      expect(received).toHaveLength(3);
      expect(new Set(received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([result.webhookId]));
      expect(received[0]!.headers["content-type"]).toBe("application/jwt");

      const { payload, protectedHeader } = await jwtVerify(received[0]!.body, provider.webhookKeys(), { algorithms: ["RS256"] });
      expect(protectedHeader.alg).toBe("RS256");
      expect(payload).toMatchObject({
        type: "customer.plan_changed",
        event_id: expect.stringMatching(/^event_/),
        source: "admin",
        data: { user_id: account.accountId, customer_id: account.accountId, customer_type: "user", plan: { key: "pro" } },
      });
      expect((await provider.currentAgreement(account))!.planCode).toBe("pro");

      // A second provider over the same database publishes the same key.
      const other = new StandinProvider(engine);
      const { keys } = await other.jwks();
      expect(keys.map((k) => k.kid)).toEqual([decodeProtectedHeader(received[0]!.body).kid]);
      expect(keys[0]).not.toHaveProperty("d");
      await jwtVerify(received[0]!.body, other.webhookKeys(), { algorithms: ["RS256"] });

      // A replay of an old cancellation does not move the stand-in.
      await sendStandinWebhook(ctx, provider, { intakeUrl: url, type: "customer.agreement_cancelled", accountId: account.accountId, eventTimestampMs: Date.now() - 3_600_000 });
      expect((await provider.currentAgreement(account))!.planCode).toBe("pro");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("a token signed by another key does not verify", async () => {
    const stranger = new StandinProvider((await makeOther()).engine);
    const { SignJWT } = await import("jose");
    const { kid, privateKey } = await stranger.signingKey();
    const token = await new SignJWT({ type: "x" }).setProtectedHeader({ alg: "RS256", kid }).sign(privateKey);
    await provider.jwks();
    await expect(jwtVerify(token, provider.webhookKeys(), { algorithms: ["RS256"] })).rejects.toThrow();
  });

  let others: EngineUnderTest[] = [];
  async function makeOther() {
    const other = await make();
    others.push(other);
    return other;
  }
  afterEach(async () => {
    for (const o of others) await o.cleanup();
    others = [];
  });
});
