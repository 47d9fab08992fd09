/**
 * The member area in a real browser against `next dev`: an operator invites a
 * member of account A; the member signs in and sees A's jobs, links (with
 * clicks and a QR code) and billing events, replays one of A's events (and
 * sees how it ended), and gets a 404 for an event of account B — the same
 * page as for an event that does not exist.
 */
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { acceptInvite, chromiumAvailable, signInAsOperator, useServerAndBrowser } from "./harness";

const SLOW = { timeout: 90_000, interval: 250 };
/** Forms whose answer needs JavaScript are used only once React has hydrated the page. */
const hydrated = (page: Page) => page.locator("[data-hydrated=true]").waitFor({ state: "attached" });

describe.skipIf(!chromiumAvailable)("a member's own account (real browser)", () => {
  const { server, browser } = useServerAndBrowser({ TOLLBOOTH_SCHEDULER: "off" });

  test("sees their jobs, links and billing events, replays their own event, and gets 404 for another account's", { timeout: 600_000 }, async () => {
    const url = server().url;
    const api = async (method: string, path: string, body?: unknown, token = server().operatorToken()) => {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    // Compile the member pages once before any wait starts (next dev compiles a page on its first visit).
    for (const path of ["/setup", "/app", "/account", "/account/jobs", "/account/links", "/account/events", "/account/events/evt_0000000000000000000z"]) {
      await fetch(`${url}${path}`, { redirect: "manual" });
    }

    // Two accounts through the API, each with a job, a link and a billing event (the stand-in signs and delivers it).
    const parties: Record<"a" | "b", { id: string; key: string; jobId: string; code: string; eventId: string }> = {} as never;
    for (const name of ["a", "b"] as const) {
      const opened = await api("POST", "/api/v1/accounts", { name: `Account ${name.toUpperCase()}`, kindeCustomerId: `customer_member_${name}` });
      expect(opened.status).toBe(201);
      const { account, apiKey } = opened.body as { account: { id: string }; apiKey: { key: string } };
      const job = await api("POST", "/api/v1/jobs", { key: `job-${name}`, estimate: 1000 }, apiKey.key);
      expect(job.status).toBe(201);
      const link = await api("POST", "/api/v1/links", { destination: `https://example.com/${name}`, code: `member${name}` }, apiKey.key);
      expect(link.status).toBe(201);
      const sent = await api("POST", "/api/v1/standin/webhooks", { type: "customer.payment_succeeded", accountId: account.id });
      expect(sent.status).toBe(200);
      const events = await api("GET", `/api/v1/inbox/events?accountId=${account.id}`);
      const [event] = (events.body as { events: { id: string }[] }).events;
      parties[name] = { id: account.id, key: apiKey.key, jobId: (job.body as { id: string }).id, code: `member${name}`, eventId: event!.id };
    }
    // A's link has one click.
    expect((await fetch(`${url}/r/${parties.a.code}`, { redirect: "manual" })).status).toBe(302);

    // The operator invites a member of A from A's page.
    const operator = await browser().newPage();
    await signInAsOperator(operator, server());
    await operator.goto(`${url}/app/accounts/${parties.a.id}`);
    await hydrated(operator);
    await operator.fill("input[name=email]", "mia@member.test");
    await operator.click("text=Invite member");
    await expect.poll(() => operator.textContent("[data-testid=secret]"), SLOW).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
    const inviteLink = (await operator.textContent("[data-testid=secret]"))!.trim();
    await operator.close();

    // The member accepts and lands on their account.
    const context = await browser().newContext();
    const page = await context.newPage();
    await acceptInvite(page, inviteLink);
    await expect.poll(() => page.textContent("h1"), SLOW).toBe("Account A");

    // Jobs: A's running job, and never B's.
    await page.click("nav >> text=Jobs");
    await page.waitForURL(/\/account\/jobs$/);
    await expect.poll(() => page.textContent("[data-testid=running-jobs]"), SLOW).toContain(parties.a.jobId);
    expect(await page.textContent("main")).not.toContain(parties.b.jobId);
    await page.click(`text=${parties.a.jobId}`);
    await page.waitForURL(new RegExp(`/account/jobs/${parties.a.jobId}$`));
    await expect.poll(() => page.textContent("[data-testid=job-events]"), SLOW).toContain("reserved");

    // Links: A's link with its click, and its QR code.
    await page.click("nav >> text=Links");
    await page.waitForURL(/\/account\/links$/);
    await expect.poll(() => page.textContent(`[data-testid=member-links] tr[data-code=${parties.a.code}] [data-cell=clicks]`), SLOW).toBe("1");
    expect(await page.textContent("main")).not.toContain(parties.b.code);
    await page.click(`[data-testid=member-links] >> text=${parties.a.code}`);
    await page.waitForURL(new RegExp(`/account/links/${parties.a.code}$`));
    await page.locator("[data-testid=qr] svg").waitFor();

    // Billing events: A's event, replayed from the page; the worker runs it again through the same guards.
    await page.click("nav >> text=Billing events");
    await page.waitForURL(/\/account\/events$/);
    await hydrated(page);
    const row = page.locator(`[data-testid=inbox-events] tr[data-event-id=${parties.a.eventId}]`);
    await row.waitFor();
    expect(await page.textContent("main")).not.toContain(parties.b.eventId);
    await row.locator("button", { hasText: "Replay" }).click();
    await expect.poll(() => row.textContent(), SLOW).toMatch(/1 replayed/);
    const after = await api("GET", `/api/v1/inbox/events/${parties.a.eventId}`);
    expect((after.body as { event: { replays: number } }).event.replays).toBe(1);
    const audit = await api("GET", `/api/v1/audit?accountId=${parties.a.id}`);
    expect((audit.body as { entries: { action: string; actorLabel: string }[] }).entries).toContainEqual(expect.objectContaining({ action: "inbox.replay", actorLabel: "mia@member.test" }));

    // Another account's event is the same 404 as one that does not exist; so is its job and its link.
    for (const path of [`/account/events/${parties.b.eventId}`, "/account/events/evt_0000000000000000000z", `/account/jobs/${parties.b.jobId}`, `/account/links/${parties.b.code}`]) {
      const response = await page.goto(`${url}${path}`);
      expect(response!.status(), path).toBe(404);
      expect(await page.textContent("body"), path).not.toContain(parties.b.id);
    }
    await context.close();
  });
});
