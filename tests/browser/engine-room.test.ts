/**
 * The Engine Room and the Inbox in a real browser against `next dev`: the
 * article's nine deliveries go as signed JWTs over HTTP to the real endpoints
 * (the stand-in signs them), the checkpoints come from those runs, and a
 * Replay from the account page runs through the same guards.
 */
import { describe, expect, test } from "vitest";
import { chromiumAvailable, signInAsOperator, useServerAndBrowser } from "./harness";

describe.skipIf(!chromiumAvailable)("Engine Room and Inbox (real browser, real HTTP)", () => {
  const running = useServerAndBrowser();

  test("the nine deliveries reach every checkpoint of the article; the account page replays an event and nothing changes", async () => {
    const server = running.server();
    const page = await running.browser().newPage();
    // next dev compiles each page on its first request; on a busy 2-core machine that takes a while.
    page.setDefaultTimeout(120_000);
    await signInAsOperator(page, server);

    await page.goto(`${server.url}/app/engine-room`);
    await page.click("text=Run against both handlers");
    await page.waitForSelector("[data-testid=checkpoints]", { timeout: 90_000 });
    const checkpoints = await page.$$eval("[data-testid=checkpoints] li", (items) => items.map((li) => `${li.getAttribute("data-ok")} ${li.textContent}`));
    expect(checkpoints).toHaveLength(9);
    expect(checkpoints.filter((c) => !c.startsWith("true"))).toEqual([]);
    expect(await page.textContent("[data-testid=naive-final]")).toBe("pro with 2,950");
    expect(await page.textContent("[data-testid=pipeline-final]")).toBe("pro with 500");
    const naiveBalances = await page.$$eval("[data-testid=run-naive] [data-cell=balance]", (cells) => cells.map((c) => c.textContent));
    expect(naiveBalances).toEqual(["10", "10", "500", "990", "1,480", "1,970", "1,970", "2,460", "2,950"]);

    // The pipeline's test account: its billing events, and a Replay of the plan change.
    await page.click("[data-testid=run-pipeline] a");
    await page.waitForURL(/\/app\/accounts\/acct_/);
    await expect.poll(() => page.textContent("[data-testid=balance]")).toBe("500");
    const planEventId = await page.locator("tr[data-status=applied]", { hasText: "customer.plan_changed" }).getAttribute("data-event-id");
    const planRow = page.locator(`tr[data-event-id=${planEventId}]`);
    await planRow.locator("button", { hasText: "Replay" }).click();
    await expect.poll(() => planRow.textContent(), { timeout: 30_000 }).toContain("1 replayed, 0 applied, 1 ignored");
    await page.reload();
    await expect.poll(() => page.textContent("[data-testid=balance]")).toBe("500");
    expect(await page.textContent("body")).toContain("ignored: a newer plan change is already stored");

    // The Inbox lists the pipeline's three stored events (the naive handler stores nothing), with the copies each got.
    await page.goto(`${server.url}/app/inbox`);
    const rows = page.locator("[data-testid=inbox-events] tr[data-event-id]");
    await expect.poll(() => rows.count()).toBe(3);
    const seen = await rows.evaluateAll((trs) => trs.map((tr) => `${tr.querySelector("[data-cell=type]")?.textContent} ${tr.getAttribute("data-status")} ${tr.querySelector("[data-cell=copies]")?.textContent}`).sort());
    expect(seen).toEqual(["customer.agreement_cancelled ignored 1", "customer.payment_succeeded applied 5", "customer.plan_changed ignored 3"]);
    expect(await page.locator("[data-testid=dead-banner]").count()).toBe(0);
  }, 400_000);
});
