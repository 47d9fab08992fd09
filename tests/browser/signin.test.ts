/** An operator signs in with the printed token, creates an account, and signs out. */
import { describe, expect, test } from "vitest";
import { chromiumAvailable, useServerAndBrowser } from "./harness";

describe.skipIf(!chromiumAvailable)("dashboard sign-in (real browser)", () => {
  const running = useServerAndBrowser();

  test("the dashboard is closed without a session; the printed token opens it; sign-out closes it", async () => {
    const server = running.server();
    expect(server.output()).toContain(server.operatorToken());
    const page = await running.browser().newPage();
    const slow = { timeout: 60_000 };

    await page.goto(`${server.url}/app`);
    expect(new URL(page.url()).pathname).toBe("/signin");

    await page.fill("#token", "tb_op_not-the-token-at-all-000000000000");
    await page.click("button[type=submit]");
    await page.waitForURL(/\/signin\?error=1/);
    await expect.poll(() => page.textContent("body"), slow).toContain("That token is not the operator token.");

    await page.fill("#token", server.operatorToken());
    await page.click("button[type=submit]");
    await page.waitForURL(/\/app$/);
    await expect.poll(() => page.textContent("h1"), slow).toBe("Overview");

    await page.click("text=Accounts");
    await page.waitForURL(/\/app\/accounts$/);
    await page.fill("input[name=name]", "Browser Co");
    await page.fill("input[name=kindeCustomerId]", "customer_browser");
    await page.click("text=Create account");
    await expect.poll(() => page.textContent("table"), slow).toContain("Browser Co");
    await expect.poll(() => page.textContent("table"), slow).toContain("customer_browser");

    // The same Kinde customer twice: the form shows why, and no second row appears.
    await page.fill("input[name=name]", "Copy Co");
    await page.fill("input[name=kindeCustomerId]", "customer_browser");
    await page.click("text=Create account");
    await expect.poll(() => page.textContent("[role=alert]"), slow).toContain("already belongs to another account");
    expect(await page.textContent("table")).not.toContain("Copy Co");

    await page.click("text=Sign out");
    await page.waitForURL(/\/signin$/);
    await page.goto(`${server.url}/app/accounts`);
    expect(new URL(page.url()).pathname).toBe("/signin");
  });
});
