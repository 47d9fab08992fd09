/**
 * The Concurrency Lab in a real browser: the article's defaults show 200,000
 * spent with a plain check and 80,000 with a hold, as a chart; the hold's
 * account page shows its budget, where the limit came from, and the jobs.
 */
import { describe, expect, test } from "vitest";
import { chromiumAvailable, signInAsOperator, useServerAndBrowser } from "./harness";

describe.skipIf(!chromiumAvailable)("Concurrency Lab (real browser)", () => {
  const running = useServerAndBrowser();

  test("five jobs of 40,000 against 100,000: 200,000 spent with a check, 80,000 with a hold; the account page shows the budget", async () => {
    const server = running.server();
    const page = await running.browser().newPage();
    page.setDefaultTimeout(120_000); // a busy machine compiles dev pages slowly
    await signInAsOperator(page, server);

    await page.goto(`${server.url}/app/lab`);
    expect(await page.inputValue("input[name=jobs]")).toBe("5");
    expect(await page.inputValue("input[name=estimate]")).toBe("40000");
    expect(await page.inputValue("input[name=limit]")).toBe("100000");
    await page.click("text=Run both");
    await page.waitForSelector("[data-testid=lab-hold-spent]", { timeout: 60_000 });
    expect(await page.textContent("[data-testid=lab-check-spent]")).toBe("200,000");
    expect(await page.textContent("[data-testid=lab-hold-spent]")).toBe("80,000");
    expect(await page.textContent("[data-testid=lab-check-started]")).toBe("5");
    expect(await page.textContent("[data-testid=lab-hold-started]")).toBe("2");
    expect(await page.textContent("[data-testid=lab-hold-refused]")).toBe("3");
    expect(await page.textContent("[data-testid=lab-hold]")).toContain("The job needs 40000 and 20000 is left.");
    await page.waitForSelector("[data-testid=lab-chart] svg .recharts-bar-rectangle");

    await page.click("[data-testid=lab-hold] a");
    await page.waitForURL(/\/app\/accounts\/acct_/);
    await expect.poll(() => page.textContent("[data-testid=budgets]"), { timeout: 60_000 }).toContain("80,000");
    expect(await page.textContent("[data-testid=limit-sources]")).toContain("from standin");
    expect(await page.textContent("[data-testid=settled-jobs]")).toContain("completed");
  }, 400_000); // next dev compiles each page on first visit
});
