/**
 * The production server's direct path over real HTTP (server/direct.ts, the
 * listener server/main.ts serves): the short-link redirect, its HEAD, the
 * webhook intake, health and ping answer without Next.js; anything else goes
 * to the fallback (Next.js in production).
 */
import { SignJWT } from "jose";
import { execFile } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as accounts from "../../lib/accounts/scripts";
import { inboxWorkerIdle } from "../../lib/inbox/kick";
import * as inbox from "../../lib/inbox/scripts";
import * as links from "../../lib/links/scripts";
import { getRuntime } from "../../lib/runtime";
import { directListener } from "../../server/direct";
import { kindeClaims } from "../contract/inbox-kit";
import { startApi, type ApiHarness } from "./harness";

let api: ApiHarness;
let server: http.Server;
let base: string;
let code: string;
beforeAll(async () => {
  api = await startApi();
  server = http.createServer(
    directListener(async (_req, res) => {
      res.writeHead(418, { "content-type": "text/plain" });
      res.end("fallback");
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  const engine = getRuntime().engine;
  const account = await engine.run(accounts.create, { name: "Direct" });
  code = (await engine.run(links.create, { accountId: account.id, destination: "https://example.com/direct" })).code;
});
afterAll(async () => {
  await inboxWorkerIdle();
  await new Promise((resolve) => server.close(resolve));
  await api.close();
});

/** Sends one raw request and returns everything the server wrote before closing, so a body sent after HEAD shows. */
function raw(request: string): Promise<string> {
  const { port } = server.address() as net.AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.end(request));
    let text = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
}

const clicks = async () => (await getRuntime().engine.run(links.stats, { code }))!.clicks;

describe("the direct path over HTTP", () => {
  test("GET /r/<code>: 302 to the destination, and the click is committed when the 302 arrives (nothing deferred on the embedded engine)", async () => {
    const before = await clicks();
    const response = await fetch(`${base}/r/${code}`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("https://example.com/direct");
    expect(response.headers.get("x-click-key")).toMatch(/^click_/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await response.text()).toBe("");
    expect(await clicks()).toBe(before + 1);
  });

  test("HEAD /r/<code>: the 302's headers, no body, no click; an unknown code is 404 with the page's length and no body", async () => {
    const before = await clicks();
    const found = await raw(`HEAD /r/${code} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    const [head, body] = found.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 302/);
    expect(head).toMatch(/\r\nlocation: https:\/\/example\.com\/direct\r\n/i);
    expect(body).toBe("");
    expect(await clicks()).toBe(before);

    const missing = await raw("HEAD /r/nosuchcode HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    const [missingHead, missingBody] = missing.split("\r\n\r\n");
    expect(missingHead).toMatch(/^HTTP\/1\.1 404/);
    expect(Number(/\r\ncontent-length: (\d+)/i.exec(missingHead!)?.[1])).toBeGreaterThan(0);
    expect(missingBody).toBe("");
    const get = await fetch(`${base}/r/nosuchcode`);
    expect(get.status).toBe(404);
    expect(await get.text()).toMatch(/This short link does not exist/);
  });

  test("POST /api/webhooks/kinde: a signed webhook is verified and stored, a bad one is 401", async () => {
    const { kid, privateKey } = await getRuntime().standin.signingKey();
    const token = await new SignJWT(kindeClaims({ type: "customer.payment_succeeded", customerId: "customer_nobody", atMs: Date.now() - 60_000, eventId: "event_direct_1" }))
      .setProtectedHeader({ alg: "RS256", kid, typ: "JWT" })
      .sign(privateKey);
    const post = (body: string) => fetch(`${base}/api/webhooks/kinde`, { method: "POST", body, headers: { "content-type": "application/jwt", "webhook-id": "msg_direct_1" } });
    const stored = await post(token);
    expect(stored.status).toBe(200);
    const answer = (await stored.json()) as { stored: boolean; inboxEventId: string };
    expect(answer.stored).toBe(true);
    expect((await getRuntime().engine.run(inbox.list, { limit: 200 })).events.map((e) => e.id)).toContain(answer.inboxEventId);
    expect((await post(`${token.slice(0, -4)}AAAA`)).status).toBe(401);
  });

  test("JSON bodies: the handler reads what the bridge read (body.ts); too large is 413, not JSON is 400, both in the error shape and writing nothing", async () => {
    const post = (body: string) =>
      fetch(`${base}/api/v1/accounts`, { method: "POST", body, headers: { authorization: `Bearer ${api.operatorToken}`, "content-type": "application/json" } });
    const count = async () => (await getRuntime().engine.run(accounts.list, { limit: 200 })).accounts.length;
    const before = await count();
    const made = await post(JSON.stringify({ name: "Through the bridge é" }));
    expect(made.status).toBe(201);
    expect(((await made.json()) as { account: { name: string } }).account.name).toBe("Through the bridge é");
    const tooLarge = await post(JSON.stringify({ name: "x".repeat(70 * 1024) }));
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as { error: { code: string } }).error.code).toBe("payload_too_large");
    const notJson = await post("{name:");
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: { message: string } }).error.message).toMatch(/not valid JSON/);
    expect(await count()).toBe(before + 1);
  });

  test("the load script's clicks mode (scripts/load.mjs <code> --clicks --warmup): every warm-up and timed click redirected and read back from GET /api/v1/links/<code>", async () => {
    const before = await clicks();
    const args = ["scripts/load.mjs", code, "--clicks", "120", "--warmup", "30", "--concurrency", "8", "--url", base, "--token", api.operatorToken, "--json"];
    // Asynchronous on purpose: the server under test runs in this process.
    const stdout = await new Promise<string>((resolve, reject) => execFile(process.execPath, args, (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out))));
    const summary = JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, number>;
    expect(summary).toMatchObject({ warmupClicks: 30, clicksSent: 150, redirects302: 150, clicksRecorded: 150, missing: 0, errors: 0, notFound404: 0 });
    expect(summary.p99Ms).toBeGreaterThan(0);
    expect(await clicks()).toBe(before + 150);
  });

  test("health and ping answer directly; another method or path goes to the fallback", async () => {
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    const ping = await fetch(`${base}/api/ping`);
    expect([ping.status, await ping.text()]).toEqual([200, "ok"]);
    expect((await fetch(`${base}/api/ping`, { method: "POST", body: "x" })).status).toBe(200);
    expect((await fetch(`${base}/r/${code}`, { method: "PUT" })).status).toBe(418);
    expect((await fetch(`${base}/app`)).status).toBe(418);
  });
});
