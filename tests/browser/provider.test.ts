/**
 * The Provider page in a real browser, over the stand-in: an operator turns a
 * fault switch on and sees it while it is on, sets an account's limit, and
 * checks the account against the provider.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { chromiumAvailable, launchBrowser, signInAsOperator, startDevServer, type RunningServer } from "./harness";

describe.skipIf(!chromiumAvailable)("Provider page (real browser)", () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startDevServer();
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  test("switches show while they are on; a limit set for an account is what the provider then answers", { timeout: 600_000 }, async () => {
    const page = await browser.newPage();
    // next dev compiles each page on first visit; on a busy 2-core machine that can take a while.
    page.setDefaultTimeout(120_000);
    const slow = { timeout: 60_000 };
    await signInAsOperator(page, server);

    await page.goto(`${server.url}/app/accounts`);
    await page.fill("input[name=name]", "Switch Co");
    await page.click("text=Create account");
    await expect.poll(() => page.textContent("table"), slow).toContain("Switch Co");

    await page.goto(`${server.url}/app/provider`);
    await expect.poll(() => page.textContent("h1"), slow).toBe("Provider");
    await expect.poll(() => page.textContent("[data-testid=faults-on]"), slow).toContain("All switches are off");

    await page.fill("[data-fault=drift] input[name=amount]", "426");
    await page.click("[data-fault=drift] >> text=Turn on");
    await expect.poll(() => page.textContent("[data-testid=faults-on]"), slow).toContain("moving the next write by +426");
    await page.click("[data-fault=drift] >> text=Turn off");
    await expect.poll(() => page.textContent("[data-testid=faults-on]"), slow).toContain("All switches are off");

    await page.fill("form[aria-label='Set a limit'] input[name=limitMax]", "250");
    await page.click("text=Set limit");
    await expect.poll(() => page.textContent("form[aria-label='Set a limit']"), slow).toContain("tokens for acct_");

    await page.click("form >> text=Check");
    await expect.poll(() => page.textContent("[data-testid=provider-check]"), slow).toMatch(/Limit tokens\s*250/);
  });
});
