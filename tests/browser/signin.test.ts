/**
 * In a real browser against `next dev`:
 *  1. first run: the printed setup token makes the first operator (a wrong one
 *     does not); the operator creates accounts, invites a member, signs out
 *     and signs in again with the password;
 *  2. the member accepts the invite and sees only their own account: the
 *     operator pages send them away, another account's API answer is 404.
 * Every page carries a content security policy with a nonce, and the pages
 * run under it (client forms work, no policy violations are reported).
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acceptInvite, chromiumAvailable, launchBrowser, startDevServer, type RunningServer } from "./harness";

const PASSWORD = "a long operator password";
/** next dev compiles a page or a server action on first use; on a busy 2-core machine that can take tens of seconds. */
const SLOW = { timeout: 90_000, interval: 250 };
/** Forms whose answer needs JavaScript are used only once React has hydrated the page. */
const hydrated = (page: Page) => page.locator("[data-hydrated=true]").waitFor({ state: "attached" });

describe.skipIf(!chromiumAvailable)("people in a real browser", { timeout: 240_000 }, () => {
  let server: RunningServer;
  let browser: Browser;
  let inviteLink = "";
  let otherAccountId = "";
  const violations: string[] = [];
  const watch = (page: Page) => {
    // next dev compiles each page on its first visit; on a busy 2-core machine that can take a while.
    page.setDefaultNavigationTimeout(120_000);
    page.setDefaultTimeout(60_000);
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
  };

  beforeAll(async () => {
    server = await startDevServer();
    browser = await launchBrowser();
    // Compile the pages once before the clock of any test starts.
    for (const path of ["/signin", "/setup", "/app", "/account", "/invite/warmup-token-000000000000"]) await fetch(`${server.url}${path}`, { redirect: "manual" });
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  test("first run, sign-in and sign-out: the setup token works once and makes the first operator", async () => {
    const setupToken = server.setupToken();
    expect(server.output()).toContain(setupToken);
    const page = await browser.newPage();
    watch(page);

    const first = await page.goto(`${server.url}/app`);
    expect(new URL(page.url()).pathname).toBe("/signin");
    expect(first!.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    expect(first!.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(first!.headers()["x-content-type-options"]).toBe("nosniff");

    await page.goto(`${server.url}/setup`);
    await page.fill("#setupToken", "tb_setup_not-the-token-at-all-0000000");
    await page.fill("#name", "Ana");
    await page.fill("#email", "ana@example.com");
    await page.fill("#password", PASSWORD);
    await page.click("button[type=submit]");
    await page.waitForURL(/\/setup\?error=token/);

    await page.fill("#setupToken", setupToken);
    await page.fill("#name", "Ana");
    await page.fill("#email", "ana@example.com");
    await page.fill("#password", PASSWORD);
    await page.click("button[type=submit]");
    await page.waitForURL(/\/app$/);
    await expect.poll(() => page.textContent("[data-testid=signed-in-as]"), SLOW).toBe("ana@example.com");

    // The setup page is closed for good.
    await page.goto(`${server.url}/setup`);
    await expect.poll(() => page.textContent("h1"), SLOW).toBe("Setup is done");

    // Accounts: create two; invite a member of the first from its page.
    await page.goto(`${server.url}/app/accounts`);
    await hydrated(page);
    for (const name of ["Browser Co", "Other Co"]) {
      await page.fill("input[name=name]", name);
      await page.click("text=Create account");
      await expect.poll(() => page.textContent("table"), SLOW).toContain(name);
    }
    otherAccountId = (await page.locator("tr", { hasText: "Other Co" }).locator("td").nth(1).textContent())!.trim();
    await page.click("text=Browser Co");
    await page.waitForURL(/\/app\/accounts\/acct_/);
    await hydrated(page);
    await page.fill("input[name=email]", "mia@browser.test");
    await page.click("text=Invite member");
    await expect.poll(() => page.textContent("[data-testid=secret]"), SLOW).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
    inviteLink = (await page.textContent("[data-testid=secret]"))!.trim();
    // The page's refresh after the action has landed once the open invite is listed.
    await page.locator("[data-testid=members]", { hasText: "mia@browser.test" }).waitFor();

    // A key: shown once, then listed by prefix and last four.
    await page.click("button:has-text('Create key')");
    await page.locator("[data-testid=secret]", { hasText: "tb_live_" }).waitFor();
    await expect.poll(() => page.locator("[data-testid=keys] tbody tr").count(), SLOW).toBe(1);

    await page.click("text=Sign out");
    await page.waitForURL(/\/signin$/);
    await page.goto(`${server.url}/app/accounts`);
    expect(new URL(page.url()).pathname).toBe("/signin");

    await page.fill("#email", "ana@example.com");
    await page.fill("#password", "not the password at all");
    await page.click("button[type=submit]");
    await page.waitForURL(/\/signin\?error=1/);
    await page.fill("#email", "ana@example.com");
    await page.fill("#password", PASSWORD);
    await page.click("button[type=submit]");
    await page.waitForURL(/\/app$/);

    await page.goto(`${server.url}/app/audit`);
    await expect.poll(() => page.textContent("[data-testid=audit]"), SLOW).toContain("people.invite");
    expect(await page.textContent("[data-testid=audit]")).toContain("keys.create");
    await page.close();
  });

  test("a member accepts the invite and sees only their own account", async () => {
    expect(inviteLink).not.toBe("");
    const context = await browser.newContext();
    const page = await context.newPage();
    watch(page);
    await acceptInvite(page, inviteLink);
    await expect.poll(() => page.textContent("h1"), SLOW).toBe("Browser Co");
    expect(await page.textContent("body")).not.toContain("Other Co");

    // Operator pages send a member to their own area.
    for (const path of ["/app", "/app/accounts", `/app/accounts/${otherAccountId}`, "/app/audit"]) {
      await page.goto(`${server.url}${path}`);
      expect(new URL(page.url()).pathname, path).toBe("/account");
    }
    // The API answers another account with 404, the same as one that does not exist.
    const other = await page.request.get(`${server.url}/api/v1/accounts/${otherAccountId}`);
    expect(other.status()).toBe(404);
    expect(await page.request.get(`${server.url}/api/v1/accounts`).then((r) => r.status())).toBe(403);

    // The invite link worked once.
    const again = await (await browser.newContext()).newPage();
    await again.goto(inviteLink);
    await expect.poll(() => again.textContent("h1"), SLOW).toBe("This invite link does not work");
    expect(violations).toEqual([]);
    await context.close();
  });
});
