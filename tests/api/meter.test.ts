/**
 * The meter's HTTP surface through the real route handlers: links (create,
 * list, stats, QR), the /r/<code> redirect, corrections, connect, reconcile
 * and report-now, with account keys scoped to their own rows.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as accountsRoute from "../../app/api/v1/accounts/route";
import * as connectRoute from "../../app/api/v1/accounts/[id]/connect/route";
import * as reconcileRoute from "../../app/api/v1/accounts/[id]/reconcile/route";
import * as linksRoute from "../../app/api/v1/links/route";
import * as linkRoute from "../../app/api/v1/links/[code]/route";
import * as qrRoute from "../../app/api/v1/links/[code]/qr/route";
import * as reportRoute from "../../app/api/v1/meter/report/route";
import * as redirectRoute from "../../app/r/[code]/route";
import * as correctionsRoute from "../../app/api/v1/usage/corrections/route";
import { startApi, type ApiHarness } from "./harness";

let api: ApiHarness;
let accountId: string;
let key: string;
let otherKey: string;
beforeAll(async () => {
  api = await startApi();
  const a = (await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name: "Notch" } })).body as {
    account: { id: string };
    apiKey: { key: string };
  };
  accountId = a.account.id;
  key = a.apiKey.key;
  otherKey = ((await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name: "Other" } })).body as { apiKey: { key: string } }).apiKey.key;
});
afterAll(async () => {
  await api.close();
});

const click = (code: string) => redirectRoute.GET(new Request(`http://127.0.0.1/r/${code}`));

describe("links over HTTP", () => {
  test("an account key creates a link: code, short URL and QR; the redirect answers 302 and the click is counted", async () => {
    const created = await api.call(linksRoute.POST, { method: "POST", path: "/api/v1/links", body: { destination: "https://example.com/launch" }, token: key });
    expect(created.status).toBe(201);
    const body = created.body as { code: string; shortUrl: string; qr: { svg: string; pngUrl: string } };
    expect(body.shortUrl).toBe(`http://127.0.0.1/r/${body.code}`);
    expect(body.qr.svg).toMatch(/^<svg/);
    expect(body.qr.pngUrl).toContain(`/api/v1/links/${body.code}/qr?format=png`);

    const first = await click(body.code);
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe("https://example.com/launch");
    expect(first.headers.get("x-click-key")).toMatch(/^click_/);
    expect(first.headers.get("cache-control")).toBe("no-store");
    await click(body.code);
    // HEAD shows where it goes without counting a click.
    expect((await redirectRoute.HEAD(new Request(`http://127.0.0.1/r/${body.code}`, { method: "HEAD" }))).status).toBe(302);

    const stats = await api.call(linkRoute.GET, { path: `/api/v1/links/${body.code}`, params: { code: body.code }, token: key });
    expect(stats.status).toBe(200);
    expect((stats.body as { stats: { clicks: number; days: { clicks: number }[] } }).stats).toMatchObject({ clicks: 2, days: [{ clicks: 2 }] });
  });

  test("an unknown or malformed code gets the 404 page and records nothing", async () => {
    for (const path of ["/r/doesnotexist", "/r/..%2F..", "/r/"]) {
      const response = await redirectRoute.GET(new Request(`http://127.0.0.1${path}`));
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toContain("text/html");
      expect(await response.text()).toContain("does not exist");
    }
  });

  test("bad destinations and taken codes are refused with the field named", async () => {
    const bad = await api.call(linksRoute.POST, { method: "POST", path: "/api/v1/links", body: { destination: "javascript:alert(1)" }, token: key });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: { message: string } }).error.message).toMatch(/^destination: /);
    const loop = await api.call(linksRoute.POST, { method: "POST", path: "/api/v1/links", body: { destination: "http://127.0.0.1/r/abc" }, token: key });
    expect(loop.status).toBe(400);
    await api.call(linksRoute.POST, { method: "POST", path: "/api/v1/links", body: { destination: "https://example.com", code: "taken-1" }, token: key });
    const taken = await api.call(linksRoute.POST, { method: "POST", path: "/api/v1/links", body: { destination: "https://example.com", code: "taken-1" }, token: key });
    expect(taken.status).toBe(409);
  });

  test("another account's key gets 404 for a link, its stats and its QR; the operator sees every link", async () => {
    const created = (await api.call(linksRoute.POST, { method: "POST", path: "/api/v1/links", body: { destination: "https://example.com/private" }, token: key })).body as {
      code: string;
    };
    const params = { code: created.code };
    expect((await api.call(linkRoute.GET, { path: `/api/v1/links/${created.code}`, params, token: otherKey })).status).toBe(404);
    expect((await api.call(qrRoute.GET, { path: `/api/v1/links/${created.code}/qr`, params, token: otherKey })).status).toBe(404);
    const theirs = (await api.call(linksRoute.GET, { path: "/api/v1/links", token: otherKey })).body as { links: unknown[] };
    expect(theirs.links).toEqual([]);
    const asOperator = (await api.call(linksRoute.GET, { path: `/api/v1/links?accountId=${accountId}` })).body as { links: { code: string }[] };
    expect(asOperator.links.map((l) => l.code)).toContain(created.code);
    // An account key cannot act for another account.
    const forOther = await api.call(linksRoute.POST, { method: "POST", path: "/api/v1/links", body: { destination: "https://example.com", accountId }, token: otherKey });
    expect(forOther.status).toBe(404);
  });

  test("the QR code downloads as SVG and as PNG", async () => {
    const { code } = (await api.call(linksRoute.POST, { method: "POST", path: "/api/v1/links", body: { destination: "https://example.com/qr" }, token: key })).body as { code: string };
    const svg = await api.call(qrRoute.GET, { path: `/api/v1/links/${code}/qr?format=svg&download=1`, params: { code }, token: key });
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-type")).toContain("image/svg+xml");
    expect(svg.headers.get("content-disposition")).toBe(`attachment; filename="qr-${code}.svg"`);
    const png = await qrRoute.GET(new Request(`http://127.0.0.1/api/v1/links/${code}/qr?format=png`, { headers: { authorization: `Bearer ${key}` } }), {
      params: Promise.resolve({ code }),
    });
    expect(png.headers.get("content-type")).toBe("image/png");
    const bytes = new Uint8Array(await png.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });
});

describe("corrections, connect, reconcile and report over HTTP", () => {
  test("the operator corrects a click into its cycle; an account key may not; the same correction again is 200", async () => {
    const { code } = (await api.call(linksRoute.POST, { method: "POST", path: "/api/v1/links", body: { destination: "https://example.com/c" }, token: key })).body as { code: string };
    const clickKey = (await click(code)).headers.get("x-click-key")!;
    const body = { entryKey: clickKey, reason: "bot traffic" };
    expect((await api.call(correctionsRoute.POST, { method: "POST", path: "/api/v1/usage/corrections", body, token: key })).status).toBe(403);
    const corrected = await api.call(correctionsRoute.POST, { method: "POST", path: "/api/v1/usage/corrections", body });
    expect(corrected.status).toBe(201);
    expect((corrected.body as { correction: { units: number; source: string; reason: string } }).correction).toMatchObject({ units: -1, source: "correction", reason: "bot traffic" });
    expect((await api.call(correctionsRoute.POST, { method: "POST", path: "/api/v1/usage/corrections", body })).status).toBe(200);
    const stats = (await api.call(linkRoute.GET, { path: `/api/v1/links/${code}`, params: { code }, token: key })).body as { stats: { clicks: number } };
    expect(stats.stats.clicks).toBe(0);
  });

  test("connect sets the cycle anchor before usage and refuses to move it after", async () => {
    const fresh = (await api.call(accountsRoute.POST, { method: "POST", path: "/api/v1/accounts", body: { name: "Fresh" } })).body as { account: { id: string } };
    const id = fresh.account.id;
    const ok = await api.call(connectRoute.POST, { method: "POST", path: `/api/v1/accounts/${id}/connect`, params: { id }, body: { agreementStart: "2026-10-20T15:29:00Z", agreementId: "agreement_x" } });
    expect(ok.status).toBe(200);
    expect((ok.body as { account: { cycleAnchorMs: number } }).account.cycleAnchorMs).toBe(Date.parse("2026-10-20T15:29:00Z"));
    const day31 = await api.call(connectRoute.POST, { method: "POST", path: `/api/v1/accounts/${id}/connect`, params: { id }, body: { agreementStart: "2026-10-31T00:00:00Z" } });
    expect(day31.status).toBe(400);
    // With usage, the anchor is fixed.
    const moved = await api.call(connectRoute.POST, { method: "POST", path: `/api/v1/accounts/${accountId}/connect`, params: { id: accountId }, body: { agreementStart: "2026-10-02T00:00:00Z" } });
    expect(moved.status).toBe(409);
  });

  test("report-now sends the totals; reconcile then matches and a second reconcile adds no evidence row", async () => {
    const report = await api.call(reportRoute.POST, { method: "POST", path: "/api/v1/meter/report" });
    expect(report.status).toBe(200);
    expect((report.body as { reporter: { written: number } }).reporter.written).toBeGreaterThan(0);
    const first = await api.call(reconcileRoute.POST, { method: "POST", path: `/api/v1/accounts/${accountId}/reconcile`, params: { id: accountId } });
    expect(first.status).toBe(200);
    const run = first.body as { ok: boolean; run: { evidenceRows: number }; findings: { evidence: { verdict: string } }[] };
    expect(run.ok).toBe(true);
    expect(run.findings.map((f) => f.evidence.verdict)).toEqual(["match"]);
    expect(run.run.evidenceRows).toBe(1);
    const second = (await api.call(reconcileRoute.POST, { method: "POST", path: `/api/v1/accounts/${accountId}/reconcile`, params: { id: accountId } })).body as {
      run: { evidenceRows: number };
    };
    expect(second.run.evidenceRows).toBe(0);
    expect((await api.call(reconcileRoute.POST, { method: "POST", path: `/api/v1/accounts/${accountId}/reconcile`, params: { id: accountId }, token: key })).status).toBe(403);
    expect((await api.call(reconcileRoute.POST, { method: "POST", path: "/api/v1/accounts/acct_00000000000000000000/reconcile", params: { id: "acct_00000000000000000000" } })).status).toBe(404);
  });
});
