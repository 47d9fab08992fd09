/**
 * The meter's pages in a real browser: an operator creates a short link, its
 * QR code shows, visitors click it, the clicks show by day; the reporter sends
 * the total, the meter is made to drift with a fault switch, and Run now finds
 * the drift, repairs it and shows the evidence.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { chromiumAvailable, launchBrowser, startDevServer, type RunningServer } from "./harness";

/** Forms whose answer needs JavaScript are used only once React has hydrated the page. */
const hydrated = (page: Page) => page.locator("[data-hydrated=true]").waitFor({ state: "attached" });

describe.skipIf(!chromiumAvailable)("Links and Reconciliation pages (real browser)", () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startDevServer({ TOLLBOOTH_SCHEDULER: "off" });
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  test("create a link, click it, see the clicks; cause a drift, Run now, see it repaired and confirmed", { timeout: 600_000 }, async () => {
    const page = await browser.newPage();
    // next dev compiles each page on first visit; on a busy 2-core machine that can take a while.
    page.setDefaultTimeout(120_000);
    const slow = { timeout: 90_000 };
    // First run: the setup token makes the operator, who is then signed in.
    await page.goto(`${server.url}/setup`);
    await page.fill("#setupToken", server.setupToken());
    await page.fill("#name", "Nora");
    await page.fill("#email", "nora@example.com");
    await page.fill("#password", "a long operator password");
    await page.click("button[type=submit]");
    await page.waitForURL(/\/app$/);

    // The account comes from the API (one page fewer to compile); the rest goes through the pages.
    const opened = await fetch(`${server.url}/api/v1/accounts`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.operatorToken()}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Notch Co" }),
    });
    expect(opened.status).toBe(201);

    await page.goto(`${server.url}/app/links`);
    await hydrated(page);
    await page.fill("input[name=destination]", "javascript:alert(1)");
    await page.evaluate(() => document.querySelector<HTMLInputElement>("input[name=destination]")!.setAttribute("type", "text"));
    await page.click("text=Create link");
    await expect.poll(() => page.textContent("form[aria-label='Create a short link'] [role=alert]"), slow).toContain("http:// or https://");
    await page.fill("input[name=destination]", "https://example.com/launch");
    await page.fill("input[name=code]", "launch");
    await page.click("text=Create link");
    await expect.poll(() => page.textContent("form[aria-label='Create a short link']"), slow).toContain("/r/launch");

    // Three visitors click; a redirect is a plain 302 to the destination.
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${server.url}/r/launch`, { redirect: "manual" });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("https://example.com/launch");
    }
    await page.goto(`${server.url}/app/links/launch`);
    await expect.poll(() => page.textContent("[data-testid=clicks]"), slow).toBe("3");
    expect(await page.locator("[data-testid=qr] svg").count()).toBe(1);
    await expect.poll(() => page.locator("[data-testid=clicks-by-day] .recharts-bar-rectangle").count(), slow).toBeGreaterThan(0);

    await page.goto(`${server.url}/app/reconciliation`);
    await hydrated(page);
    await page.click("text=Run the reporter");
    await expect.poll(() => page.textContent("main"), slow).toContain("1 written");
    await page.click("section >> text=Reconcile every account now >> xpath=.. >> button");
    await expect.poll(() => page.textContent("[data-testid=reconciliation-table]"), slow).toContain("match");

    // The meter's next write lands 426 off; one more click; the reporter writes 4 + 426.
    await page.fill("[data-fault=drift] input[name=amount]", "426");
    await page.click("[data-fault=drift] >> text=Turn on");
    await expect.poll(() => page.textContent("[data-testid=faults-on]"), slow).toContain("+426");
    expect((await fetch(`${server.url}/r/launch`, { redirect: "manual" })).status).toBe(302);
    await page.click("text=Run the reporter");
    // The write consumed the drift switch.
    await expect.poll(() => page.textContent("[data-testid=faults-on]"), slow).toContain("All switches are off");
    await page.click("section >> text=Reconcile every account now >> xpath=.. >> button");
    await expect.poll(() => page.textContent("[data-testid=reconciliation-table]"), slow).toContain("over-billed");
    expect(await page.textContent("[data-testid=reconciliation-table]")).toContain("repaired and confirmed");
    expect(await page.textContent("[data-testid=cause]")).toContain("moved without a report from the app (last sent 4, meter 430)");

    await page.click("[data-testid=reconciliation-table] >> a >> nth=0");
    await expect.poll(() => page.textContent("[data-testid=three-numbers]"), slow).toContain("over-billed");
    const evidence = await page.textContent("[data-testid=evidence]");
    expect(evidence).toContain("430");
    expect(evidence).toContain("match");
    await expect.poll(() => page.locator("[data-testid=ledger-meter-chart] .recharts-line").count(), slow).toBeGreaterThan(0);
  });
});
