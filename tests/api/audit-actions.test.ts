/**
 * Every operator action writes an audit row naming who did it and when:
 * through its API route (the operator token, an operator's session, and for a
 * replay an account's key and member) and through its dashboard server action
 * (Reconciliation panel, Inbox Replay, Engine Room, Concurrency Lab, Provider
 * faults, limits and webhooks, the account page's connect and plan & limits,
 * and a member's own Replay). Server actions run for real here: Next.js's
 * cookies() and headers() are the only stand-ins, carrying the session cookie
 * a browser would send.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";

const browser = vi.hoisted(() => ({ cookie: "", host: "127.0.0.1" }));
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: (name: string) => (name === "tollbooth_session" && browser.cookie ? { name, value: browser.cookie } : undefined) }),
  headers: async () => new Headers({ host: browser.host }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import * as memberEvents from "../../app/account/events/actions";
import * as accountActions from "../../app/app/accounts/[id]/actions";
import * as engineRoom from "../../app/app/engine-room/actions";
import * as inboxActions from "../../app/app/inbox/actions";
import * as labActions from "../../app/app/lab/actions";
import * as providerActions from "../../app/app/provider/actions";
import * as reconciliation from "../../app/app/reconciliation/actions";
import * as accountsRoute from "../../app/api/v1/accounts/route";
import * as connectRoute from "../../app/api/v1/accounts/[id]/connect/route";
import * as reconcileRoute from "../../app/api/v1/accounts/[id]/reconcile/route";
import * as replayOneRoute from "../../app/api/v1/inbox/events/[id]/replay/route";
import * as replayManyRoute from "../../app/api/v1/inbox/replay/route";
import * as reportRoute from "../../app/api/v1/meter/report/route";
import * as limitsRoute from "../../app/api/v1/standin/accounts/[id]/limits/route";
import * as faultsRoute from "../../app/api/v1/standin/faults/route";
import * as webhooksRoute from "../../app/api/v1/standin/webhooks/route";
import * as correctionsRoute from "../../app/api/v1/usage/corrections/route";
import * as naiveIntake from "../../app/api/webhooks/kinde/naive/route";
import * as intake from "../../app/api/webhooks/kinde/route";
import * as connectActions from "../../components/account/usage-actions";
import * as accounts from "../../lib/accounts/scripts";
import * as auditScripts from "../../lib/audit/scripts";
import { serveWithHandler } from "../../lib/http/node-bridge";
import { inboxWorkerIdle } from "../../lib/inbox/kick";
import * as inbox from "../../lib/inbox/scripts";
import { getRuntime } from "../../lib/runtime";
import * as standin from "../../lib/standin/scripts";
import * as usage from "../../lib/usage/scripts";
import { startApi, type ApiHarness } from "./harness";
import { cookieHeader, memberOf, SAME_ORIGIN, setupOperator } from "./people";

const OPERATOR_EMAIL = "ana@example.com";
const MEMBER_EMAIL = "mia@a.test";

let api: ApiHarness;
let operatorCookie: string;
let memberCookie: string;
let a: { id: string; key: string };
let b: { id: string; key: string };
/** This process's webhook intake over real HTTP (the Engine Room and signed webhooks post to it). */
let intakeServer: http.Server;
let intakeOrigin: string;

beforeAll(async () => {
  api = await startApi();
  operatorCookie = await setupOperator(api, OPERATOR_EMAIL);
  const open = async (name: string) => {
    const answer = await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name } });
    const body = answer.body as { account: { id: string }; apiKey: { key: string } };
    return { id: body.account.id, key: body.apiKey.key };
  };
  a = await open("A");
  b = await open("B");
  memberCookie = await memberOf(api, a.id, MEMBER_EMAIL);
  intakeServer = http.createServer((req, res) => {
    const handler = req.url?.startsWith("/api/webhooks/kinde/naive") ? naiveIntake.POST : intake.POST;
    void serveWithHandler(req, res, (request) => handler(request, undefined));
  });
  await new Promise<void>((resolve) => intakeServer.listen(0, "127.0.0.1", resolve));
  intakeOrigin = `http://127.0.0.1:${(intakeServer.address() as AddressInfo).port}`;
  browser.host = new URL(intakeOrigin).host;
});
afterAll(async () => {
  await inboxWorkerIdle();
  await new Promise((resolve) => intakeServer.close(resolve));
  await api.close();
});

const engine = () => getRuntime().engine;
const asOperator = { token: null, headers: {} as Record<string, string> };
beforeAll(() => {
  asOperator.headers = { ...cookieHeader(operatorCookie), ...SAME_ORIGIN };
});

/** Runs `act` and returns the audit rows for `action` it added (newest first); fails when there is none. */
async function audited(action: string, act: () => Promise<unknown>) {
  const [latest] = (await engine().run(auditScripts.list, { limit: 1 })).entries;
  const result = await act();
  const { entries } = await engine().run(auditScripts.list, { limit: 50 });
  const added = entries.filter((e) => (latest ? e.sortKey > latest.sortKey : true) && e.action === action);
  expect(added.length, `${action} wrote no audit row; the act answered ${String(JSON.stringify(result)).slice(0, 300)}`).toBeGreaterThan(0);
  return added[0]!;
}

const byOperator = { actorKind: "operator", actorLabel: OPERATOR_EMAIL, actorId: expect.stringMatching(/^usr_/) };
const byToken = { actorKind: "operator_token", actorLabel: "operator token", actorId: null };

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

let eventN = 0;
async function storedEvent(accountId: string): Promise<string> {
  const account = (await engine().run(accounts.get, { id: accountId }))!;
  const customerId = account.kindeCustomerId ?? `customer_${accountId.slice(-6)}`;
  if (!account.kindeCustomerId) await engine().run(accounts.update, { id: accountId, kindeCustomerId: customerId, actor: { kind: "system", id: null, label: "test" } });
  const name = `audit_${++eventN}`;
  const stored = await engine().run(inbox.receive, {
    source: "kinde",
    dedupeKey: `wh_${name}`,
    webhookId: `wh_${name}`,
    eventId: `event_${name}`,
    type: "customer.payment_succeeded",
    payload: JSON.stringify({ type: "customer.payment_succeeded", data: { customer_id: customerId } }),
    occurredAtMs: Date.now() - 1000,
    customerId,
    sizeBytes: 100,
  });
  return stored.inboxEventId;
}

let rowN = 0;
async function ledgerRow(accountId: string): Promise<string> {
  const key = `audit-row-${++rowN}`;
  const cycle = new Date().toISOString().slice(0, 7);
  await engine().run(usage.record, { key, accountId, feature: "clicks", cycle, units: 1, source: "click" });
  return key;
}

describe("API routes write an audit row naming the actor", () => {
  test("POST /api/v1/accounts/:id/reconcile", async () => {
    const row = await audited("meter.reconcile", () => api.call(reconcileRoute.POST, { method: "POST", path: `/api/v1/accounts/${a.id}/reconcile`, params: { id: a.id }, ...asOperator }));
    expect(row).toMatchObject({ ...byOperator, target: a.id, accountId: a.id });
  });

  test("POST /api/v1/usage/corrections", async () => {
    const key = await ledgerRow(a.id);
    const row = await audited("usage.correct", () => api.call(correctionsRoute.POST, { method: "POST", path: "/api/v1/usage/corrections", body: { entryKey: key, reason: "a bot" } }));
    expect(row).toMatchObject({ ...byToken, target: key, accountId: a.id });
    // The actor is who calls, never a field of the body.
    const forged = await api.call(correctionsRoute.POST, {
      method: "POST",
      path: "/api/v1/usage/corrections",
      body: { entryKey: await ledgerRow(a.id), reason: "x", actor: { kind: "system", id: null, label: "nobody" } },
    });
    expect(forged.status).toBe(400);
    expect(JSON.stringify(forged.body)).toContain("actor");
  });

  test("POST /api/v1/meter/report", async () => {
    expect(await audited("meter.report", () => api.call(reportRoute.POST, { method: "POST", path: "/api/v1/meter/report", ...asOperator }))).toMatchObject(byOperator);
  });

  test("POST /api/v1/inbox/events/:id/replay: the operator, an account's key and its member each named", async () => {
    const id = await storedEvent(a.id);
    const replay = (auth: Record<string, unknown>) => () => api.call(replayOneRoute.POST, { method: "POST", path: `/api/v1/inbox/events/${id}/replay`, params: { id }, ...auth });
    expect(await audited("inbox.replay", replay({}))).toMatchObject({ ...byToken, target: id, accountId: a.id });
    expect(await audited("inbox.replay", replay({ token: a.key }))).toMatchObject({ actorKind: "key", actorId: expect.stringMatching(/^key_/), target: id });
    expect(await audited("inbox.replay", replay({ token: null, headers: { ...cookieHeader(memberCookie), ...SAME_ORIGIN } }))).toMatchObject({
      actorKind: "member",
      actorLabel: MEMBER_EMAIL,
      target: id,
      accountId: a.id,
    });
  });

  test("POST /api/v1/inbox/replay", async () => {
    await storedEvent(a.id);
    const row = await audited("inbox.replay_many", () =>
      api.call(replayManyRoute.POST, { method: "POST", path: "/api/v1/inbox/replay", body: { fromMs: Date.now() - 60_000, toMs: Date.now() + 1 }, ...asOperator }),
    );
    expect(row).toMatchObject({ ...byOperator, target: "window" });
  });

  test("POST /api/v1/accounts/:id/connect", async () => {
    const row = await audited("accounts.connect", () =>
      api.call(connectRoute.POST, { method: "POST", path: `/api/v1/accounts/${b.id}/connect`, params: { id: b.id }, body: { agreementId: "agreement_api" }, ...asOperator }),
    );
    expect(row).toMatchObject({ ...byOperator, target: b.id });
  });

  test("the stand-in's limits, fault switches and signed webhooks", async () => {
    const limit = await audited("standin.limit", () =>
      api.call(limitsRoute.PUT, { method: "PUT", path: `/api/v1/standin/accounts/${b.id}/limits`, params: { id: b.id }, body: { featureCode: "tokens", limitMax: 500 }, ...asOperator }),
    );
    expect(limit).toMatchObject({ ...byOperator, target: b.id, accountId: b.id });
    const fault = await audited("standin.fault", () => api.call(faultsRoute.POST, { method: "POST", path: "/api/v1/standin/faults", body: { kind: "fail_writes", count: 1 } }));
    expect(fault).toMatchObject({ ...byToken, target: "fail_writes" });
    await audited("standin.fault", () => api.call(faultsRoute.POST, { method: "POST", path: "/api/v1/standin/faults", body: { clear: "all" } }));
    const webhook = await audited("standin.webhook", () =>
      api.call(webhooksRoute.POST, {
        method: "POST",
        path: "/api/v1/standin/webhooks",
        body: { type: "customer.payment_succeeded", accountId: b.id, intakeUrl: `${intakeOrigin}/api/webhooks/kinde` },
        ...asOperator,
      }),
    );
    expect(webhook).toMatchObject({ ...byOperator, target: b.id });
  });
});

describe("dashboard server actions write an audit row naming the operator", () => {
  beforeAll(() => {
    browser.cookie = operatorCookie;
  });

  test("Reconciliation panel: run now, reporter, correct a row", async () => {
    expect(await audited("meter.reconcile", () => reconciliation.runReconcileAction({ error: null, done: null }, form({ accountId: a.id })))).toMatchObject({ ...byOperator, target: a.id });
    expect(await audited("meter.report", () => reconciliation.runReporterAction({ error: null, done: null }, form({})))).toMatchObject(byOperator);
    const key = await ledgerRow(a.id);
    expect(await audited("usage.correct", () => reconciliation.correctEntryAction({ error: null, done: null }, form({ entryKey: key, reason: "a bot" })))).toMatchObject({
      ...byOperator,
      target: key,
    });
  });

  test("Inbox: Replay one, replay the dead", async () => {
    const id = await storedEvent(b.id);
    expect(await audited("inbox.replay", () => inboxActions.replayEventAction({ message: null, error: null }, form({ inboxEventId: id })))).toMatchObject({
      ...byOperator,
      target: id,
      accountId: b.id,
    });
    expect(await audited("inbox.replay_many", () => inboxActions.replayManyAction({ message: null, error: null }, form({ kind: "dead" })))).toMatchObject({ ...byOperator, target: "dead" });
  });

  test("Concurrency Lab run", async () => {
    const row = await audited("lab.run", () => labActions.runLabAction({ result: null, error: null }, form({ jobs: "2", estimate: "10", limit: "15" })));
    expect(row).toMatchObject(byOperator);
    expect(JSON.parse(row.detail)).toMatchObject({ jobs: 2, estimate: 10, limit: 15, checkAccountId: expect.stringMatching(/^acct_/) });
  });

  test("Engine Room run", async () => {
    const events = "pay customer.payment_succeeded pro 0";
    const row = await audited("engine_room.run", async () => {
      const state = await engineRoom.runEngineRoomAction({ error: null, naive: null, pipeline: null, checkpoints: null }, form({ events, deliveries: "pay pay" }));
      expect(state.error).toBeNull();
      return state.pipeline?.copies;
    });
    expect(row).toMatchObject(byOperator);
    expect(JSON.parse(row.detail)).toMatchObject({ deliveries: "pay pay", copies: 2, stored: 1 });
  });

  test("Provider: fault switches, limits, signed webhooks", async () => {
    expect(await audited("standin.fault", () => providerActions.setFaultAction({ error: null, done: null }, form({ kind: "drift", amount: "5" })))).toMatchObject({
      ...byOperator,
      target: "drift",
    });
    expect(await audited("standin.fault", () => providerActions.clearFaultAction(form({ kind: "all" })))).toMatchObject({ ...byOperator, target: "clear:all" });
    expect(await audited("standin.limit", () => providerActions.setLimitAction({ error: null, done: null }, form({ accountId: b.id, featureCode: "clicks", limitMax: "plan" })))).toMatchObject({
      ...byOperator,
      target: b.id,
    });
    const sent = await audited("standin.webhook", () =>
      providerActions.sendWebhookAction({ error: null, done: null, deliveries: [] }, form({ type: "customer.payment_succeeded", accountId: b.id, copies: "1" })),
    );
    expect(sent).toMatchObject({ ...byOperator, target: b.id });
  });

  test("account page: connect, and plan and limits (validated whole: a bad field is named and nothing is written)", async () => {
    expect(await audited("accounts.connect", () => connectActions.connectAccountAction({ error: null, done: null }, form({ accountId: a.id, agreementId: "agreement_ui" })))).toMatchObject({
      ...byOperator,
      target: a.id,
    });
    const empty = { error: null, notice: null, secret: null };
    const saved = await audited("standin.configure", () => accountActions.updatePlanAndLimits(empty, form({ accountId: a.id, planCode: "pro", "limit.tokens": "2500", "limit.clicks": "unlimited" })));
    expect(saved).toMatchObject({ ...byOperator, target: a.id });
    expect(await engine().run(standin.limits, { accountId: a.id })).toMatchObject({
      planCode: "pro",
      features: [
        { featureCode: "clicks", effectiveLimitMax: null },
        { featureCode: "tokens", effectiveLimitMax: 2500 },
      ],
    });

    const before = (await engine().run(auditScripts.list, { limit: 1 })).entries[0]!.id;
    for (const [fields, named] of [
      [{ planCode: "free", "limit.tokens": "-5" }, "limit.tokens"],
      [{ planCode: "free", "limit.tokens": "1.5" }, "limit.tokens"],
      [{ planCode: "gold", "limit.tokens": "10" }, "planCode"],
      [{ planCode: "free", "limit.to kens": "10" }, "limit"],
      [{ planCode: "free", extra: "x" }, "extra"],
    ] as const) {
      const answer = await accountActions.updatePlanAndLimits(empty, form({ accountId: a.id, ...fields }));
      expect(answer.error, JSON.stringify(fields)).toContain(named);
    }
    expect((await engine().run(auditScripts.list, { limit: 1 })).entries[0]!.id).toBe(before);
    expect((await engine().run(standin.limits, { accountId: a.id })).planCode).toBe("pro");
  });
});

describe("a member's own Replay", () => {
  test("replays their account's event, audited with the member; another account's event is 'No inbox event' and changes nothing", async () => {
    browser.cookie = memberCookie;
    const own = await storedEvent(a.id);
    const other = await storedEvent(b.id);
    const row = await audited("inbox.replay", () => memberEvents.replayOwnEventAction({ message: null, error: null }, form({ inboxEventId: own })));
    expect(row).toMatchObject({ actorKind: "member", actorLabel: MEMBER_EMAIL, target: own, accountId: a.id });

    const before = (await engine().run(auditScripts.list, { limit: 1 })).entries[0]!.id;
    const replaysBefore = (await engine().run(inbox.get, { inboxEventId: other }))!.replays;
    const refused = await memberEvents.replayOwnEventAction({ message: null, error: null }, form({ inboxEventId: other }));
    expect(refused).toEqual({ message: null, error: `No inbox event ${other}.` });
    expect((await engine().run(inbox.get, { inboxEventId: other }))!.replays).toBe(replaysBefore);
    expect((await engine().run(auditScripts.list, { limit: 1 })).entries[0]!.id).toBe(before);
  });
});
