/**
 * The webhook endpoint and the inbox API through the real route handlers:
 * one test per way verification refuses a token (each stores nothing), the
 * 200 that means "stored", and who may replay what.
 */
import { base64url, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as accountsRoute from "../../app/api/v1/accounts/route";
import * as healthRoute from "../../app/api/health/route";
import * as eventsRoute from "../../app/api/v1/inbox/events/route";
import * as eventRoute from "../../app/api/v1/inbox/events/[id]/route";
import * as replayOneRoute from "../../app/api/v1/inbox/events/[id]/replay/route";
import * as replayManyRoute from "../../app/api/v1/inbox/replay/route";
import * as naiveRoute from "../../app/api/webhooks/kinde/naive/route";
import * as webhookRoute from "../../app/api/webhooks/kinde/route";
import { inboxWorkerIdle } from "../../lib/inbox/kick";
import * as inbox from "../../lib/inbox/scripts";
import { getRuntime } from "../../lib/runtime";
import { kindeClaims } from "../contract/inbox-kit";
import { startApi, type ApiHarness } from "./harness";

let api: ApiHarness;
let sign: (claims: Record<string, unknown>, header?: Record<string, unknown>) => Promise<string>;
beforeAll(async () => {
  api = await startApi();
  const { kid, privateKey } = await getRuntime().standin.signingKey();
  sign = (claims, header = {}) => new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid, typ: "JWT", ...header }).sign(privateKey);
});
afterAll(async () => {
  await inboxWorkerIdle();
  await api.close();
});

let n = 0;
const claims = (over: Partial<Parameters<typeof kindeClaims>[0]> = {}) =>
  kindeClaims({ type: "customer.payment_succeeded", customerId: "customer_nobody", atMs: Date.now() - 60_000, eventId: `event_api_${++n}`, ...over });

async function deliver(token: string, headers: Record<string, string> = { "webhook-id": `msg_${++n}` }, token_: string | null = null) {
  const result = await api.call(webhookRoute.POST, { method: "POST", path: "/api/webhooks/kinde", rawBody: token, headers: { "content-type": "application/jwt", ...headers }, token: token_ });
  await inboxWorkerIdle();
  return result;
}

async function storedCount(): Promise<number> {
  return (await getRuntime().engine.run(inbox.list, { limit: 200 })).events.length;
}

describe("POST /api/webhooks/kinde: refusals store nothing", () => {
  const refusals: [string, number, RegExp, () => Promise<{ body: string; headers?: Record<string, string> }>][] = [
    ["a bad signature", 401, /signature does not match/, async () => ({ body: (await sign(claims())).replace(/\.([^.]+)\./, (_m, p: string) => `.${base64url.encode(JSON.stringify({ ...JSON.parse(new TextDecoder().decode(base64url.decode(p))), type: "customer.plan_changed" }))}.`) })],
    ["alg none", 401, /not signed with RS256/, async () => ({ body: `${base64url.encode(JSON.stringify({ alg: "none", typ: "JWT" }))}.${base64url.encode(JSON.stringify(claims()))}.` })],
    [
      "HMAC with the public key as the secret",
      401,
      /not signed with RS256/,
      async () => {
        const { kid } = await getRuntime().standin.signingKey();
        const jwks = await getRuntime().standin.jwks();
        const secret = new TextEncoder().encode(JSON.stringify(jwks.keys[0]));
        return { body: await new SignJWT(claims()).setProtectedHeader({ alg: "HS256", kid }).sign(secret) };
      },
    ],
    [
      "an unknown kid",
      401,
      /key \(kid\) is not in the provider's key set/,
      async () => {
        const other = await generateKeyPair("RS256");
        return { body: await new SignJWT(claims()).setProtectedHeader({ alg: "RS256", kid: "someone-else" }).sign(other.privateKey) };
      },
    ],
    ["an expired token", 401, /expired/, async () => ({ body: await sign({ ...claims(), exp: Math.floor(Date.now() / 1000) - 60 }) })],
    ["an event older than the 7-day replay window", 401, /older than the replay window of 168 hours/, async () => ({ body: await sign(claims({ atMs: Date.now() - 7 * 24 * 3_600_000 - 60_000 })) })],
    ["an event from the future", 401, /in the future/, async () => ({ body: await sign(claims({ atMs: Date.now() + 3_600_000 })) })],
    ["not a JWT", 401, /not a JWT/, async () => ({ body: "hello, I am a webhook" })],
    ["a JWT-shaped string that is not one", 401, /not a valid JWT/, async () => ({ body: "aaa.bbb.ccc" })],
    ["the wrong content type", 415, /application\/jwt/, async () => ({ body: await sign(claims()), headers: { "content-type": "application/json" } })],
    ["an oversized body", 413, /larger than 65536 bytes/, async () => ({ body: await sign({ ...claims(), padding: "x".repeat(70_000) }) })],
    ["neither webhook-id nor event_id", 400, /neither a webhook-id header nor an event_id/, async () => ({ body: await sign({ ...claims(), event_id: undefined }), headers: {} })],
    ["a signed token that is not a Kinde event", 400, /not a Kinde event/, async () => ({ body: await sign({ hello: "world" }) })],
  ];

  test.each(refusals)("%s → %i, nothing stored", async (_name, status, message, make) => {
    const before = await storedCount();
    const { body, headers } = await make();
    const answer = await deliver(body, headers ?? { "webhook-id": `msg_${++n}` });
    expect(answer.status).toBe(status);
    expect((answer.body as { error: { message: string } }).error.message).toMatch(message);
    expect(await storedCount()).toBe(before);
  });

  test("the drill header without the operator token is refused", async () => {
    const answer = await deliver(await sign(claims()), { "webhook-id": `msg_${++n}`, "tollbooth-drill": "stop-worker-mid-apply" });
    expect(answer.status).toBe(403);
  });
});

describe("POST /api/webhooks/kinde: stored, then answered", () => {
  test("200 means stored; a copy is 200 too, counted and dropped; the worker applies it after the answer", async () => {
    const token = await sign(claims({ type: "customer.meter_usage_updated" }));
    const first = await deliver(token, { "webhook-id": "msg_same" });
    const copy = await deliver(token, { "webhook-id": "msg_same" });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ received: true, stored: true, seenCount: 1 });
    expect(copy.body).toMatchObject({ received: true, stored: false, seenCount: 2 });
    const event = (await getRuntime().engine.run(inbox.get, { inboxEventId: (first.body as { inboxEventId: string }).inboxEventId }))!;
    expect(event).toMatchObject({ status: "ignored", result: "ignored: no account has Kinde customer customer_nobody", seenCount: 2 });
  });

  test("without a webhook-id header the event_id is the dedupe key", async () => {
    const token = await sign(claims({ eventId: "event_no_header" }));
    const first = await deliver(token, {});
    const again = await deliver(token, {});
    expect((first.body as { stored: boolean }).stored).toBe(true);
    expect((again.body as { stored: boolean }).stored).toBe(false);
  });

  test("the naive endpoint is the operator's only", async () => {
    const token = await sign(claims());
    const answer = await api.call(naiveRoute.POST, { method: "POST", path: "/api/webhooks/kinde/naive", rawBody: token, headers: { "content-type": "application/jwt" }, token: null });
    expect(answer.status).toBe(401);
  });
});

describe("replay and the event API", () => {
  async function openAccount(name: string) {
    const kindeCustomerId = `customer_${name}_${++n}`;
    const created = await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name, kindeCustomerId } });
    const { account, apiKey } = created.body as { account: { id: string }; apiKey: { key: string } };
    const stored = await deliver(await sign(claims({ type: "customer.plan_changed", plan: "pro", customerId: kindeCustomerId })));
    return { accountId: account.id, key: apiKey.key, eventId: (stored.body as { inboxEventId: string }).inboxEventId };
  }

  test("an account member replays its own event: same guards, answered with how it ended", async () => {
    const a = await openAccount("Alpha");
    const answer = await api.call(replayOneRoute.POST, { method: "POST", path: `/api/v1/inbox/events/${a.eventId}/replay`, params: { id: a.eventId }, token: a.key });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ replayed: a.eventId, requeued: 1, applied: 0, ignored: 1, waiting: 0 });
    expect((answer.body as { results: { result: string }[] }).results[0]!.result).toBe("ignored: a newer plan change is already stored");
  });

  test("a member cannot replay or read another account's event: 404, the same as a missing one", async () => {
    const a = await openAccount("Bravo");
    const b = await openAccount("Charlie");
    const other = await api.call(replayOneRoute.POST, { method: "POST", path: `/api/v1/inbox/events/${b.eventId}/replay`, params: { id: b.eventId }, token: a.key });
    const missing = await api.call(replayOneRoute.POST, { method: "POST", path: "/api/v1/inbox/events/evt_00000000000000000000/replay", params: { id: "evt_00000000000000000000" }, token: a.key });
    const read = await api.call(eventRoute.GET, { path: `/api/v1/inbox/events/${b.eventId}`, params: { id: b.eventId }, token: a.key });
    expect([other.status, missing.status, read.status]).toEqual([404, 404, 404]);
    expect((await getRuntime().engine.run(inbox.get, { inboxEventId: b.eventId }))!.replays).toBe(0);
    const list = await api.call(eventsRoute.GET, { path: "/api/v1/inbox/events", token: a.key });
    expect((list.body as { events: { accountId: string }[] }).events.every((e) => e.accountId === a.accountId)).toBe(true);
    const theirs = await api.call(eventsRoute.GET, { path: `/api/v1/inbox/events?accountId=${b.accountId}`, token: a.key });
    expect(theirs.status).toBe(404);
  });

  test("an event no account owns can be replayed by the operator only", async () => {
    const a = await openAccount("Delta");
    const orphan = await deliver(await sign(claims({ customerId: "customer_nobody_2" })));
    const id = (orphan.body as { inboxEventId: string }).inboxEventId;
    expect((await api.call(replayOneRoute.POST, { method: "POST", path: `/api/v1/inbox/events/${id}/replay`, params: { id }, token: a.key })).status).toBe(404);
    const byOperator = await api.call(replayOneRoute.POST, { method: "POST", path: `/api/v1/inbox/events/${id}/replay`, params: { id } });
    expect(byOperator.body).toMatchObject({ requeued: 1, ignored: 1 });
  });

  test("the operator replays a time window and gets counts; members cannot", async () => {
    const a = await openAccount("Echo");
    const fromMs = Date.now() - 60_000;
    const member = await api.call(replayManyRoute.POST, { method: "POST", path: "/api/v1/inbox/replay", body: { dead: true }, token: a.key });
    expect(member.status).toBe(403);
    const answer = await api.call(replayManyRoute.POST, { method: "POST", path: "/api/v1/inbox/replay", body: { fromMs, toMs: Date.now() + 1 } });
    expect(answer.status).toBe(200);
    const body = answer.body as { requeued: number; applied: number; ignored: number; waiting: number };
    expect(body.requeued).toBeGreaterThan(0);
    expect(body.applied + body.ignored).toBe(body.requeued);
    expect(body.applied).toBe(0); // everything was applied once already: replays change nothing
    const dead = await api.call(replayManyRoute.POST, { method: "POST", path: "/api/v1/inbox/replay", body: { dead: true } });
    expect(dead.body).toMatchObject({ requeued: 0, more: false });
  });

  test("/api/health counts dead events", async () => {
    const health = await api.call(healthRoute.GET, { path: "/api/health" });
    expect(health.body).toMatchObject({ inbox: { deadEvents: 0, deadCountCap: 1000 } });
  });
});

describe("a database failure", () => {
  test("answers 500, so Kinde retries", async () => {
    const token = await sign(claims());
    await inboxWorkerIdle();
    await getRuntime().engine.close();
    const answer = await api.call(webhookRoute.POST, { method: "POST", path: "/api/webhooks/kinde", rawBody: token, headers: { "content-type": "application/jwt", "webhook-id": "msg_db_down" } });
    expect(answer.status).toBe(500);
  });
});
