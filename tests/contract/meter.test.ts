/**
 * The meter on both engines, against the stand-in: the reporter (marks,
 * absolute totals, the sent log, re-marks after failures and 429s, the
 * closed-cycle review), the reconciler (each verdict, repair with read-back,
 * counter rebuilds, evidence that does not repeat), the cycle anchor and the
 * reconcile queue.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import * as accounts from "../../lib/accounts/scripts";
import { runReconciler, runReconcileRequests } from "../../lib/meter/reconciler";
import { runReporter } from "../../lib/meter/reporter";
import * as meter from "../../lib/meter/scripts";
import type { ResultOf } from "../../lib/scripts/define";
import * as usage from "../../lib/usage/scripts";
import { worlds, type MeterWorld } from "./meter-world";

const ANCHOR = Date.parse("2026-10-20T15:29:00Z");
const CYCLE = "2026-10";
const NEXT_CYCLE_START = Date.parse("2026-11-20T15:29:00Z");

describe.each(worlds)("the meter on %s", (_name, make) => {
  let w: MeterWorld;
  let accountId: string;
  let n = 0;
  beforeEach(async () => {
    w = await make(Date.parse("2026-10-25T12:00:00Z"));
    accountId = await w.account(ANCHOR);
  });
  afterEach(async () => {
    await w.cleanup();
  });

  const clicks = async (count: number, cycle = CYCLE, who = accountId) => {
    for (let i = 0; i < count; i++) await w.engine.run(usage.record, { key: `c${n++}`, accountId: who, feature: "clicks", cycle, units: 1, source: "click" });
  };
  const detail = (cycle = CYCLE, feature = "clicks") => w.engine.run(meter.cycleDetail, { accountId, feature, cycle });
  const reconcile = () => runReconciler(w.ctx, { trigger: "on_demand", accountIds: [accountId] });

  describe("reporter", () => {
    test("sends each marked cycle's total with one absolute write, deletes the mark, and logs the write", async () => {
      await clicks(7);
      await w.engine.run(usage.record, { key: "job-1", accountId, feature: "tokens", cycle: CYCLE, units: 1200, source: "job" });
      const summary = await runReporter(w.ctx);
      expect(summary).toMatchObject({ taken: 2, written: 2, failed: 0, closed: 0 });
      expect(await w.meterTotal(accountId, "clicks", CYCLE)).toBe(7);
      expect(await w.meterTotal(accountId, "tokens", CYCLE)).toBe(1200);
      const d = await detail();
      expect(d.marked).toBe(false);
      expect(d.reports).toEqual([{ accountId, feature: "clicks", cycle: CYCLE, totalUnits: 7, atMs: w.now(), result: "ok", detail: null, sentBy: "reporter" }]);
      expect(d.state).toMatchObject({ sentUnits: 7, lastAttemptResult: "ok", leaseUntilMs: 0 });

      // Nothing marked: the next run writes nothing.
      expect((await runReporter(w.ctx)).taken).toBe(0);
      // A late click marks the cycle again and the next report carries the new total.
      await clicks(1);
      expect((await runReporter(w.ctx)).written).toBe(1);
      expect(await w.meterTotal(accountId, "clicks", CYCLE)).toBe(8);
    });

    test("a failed write is logged and marks the cycle again after the loop; the next run sends it", async () => {
      await clicks(3);
      await w.fault({ kind: "fail_writes", count: 1 });
      expect(await runReporter(w.ctx)).toMatchObject({ taken: 1, written: 0, failed: 1 });
      const d = await detail();
      expect(d.marked).toBe(true);
      expect(d.reports[0]).toMatchObject({ result: "failed", totalUnits: 3 });
      expect(d.reports[0]!.detail).toContain("fail the next writes");
      expect(d.state).toMatchObject({ sentUnits: null, lastAttemptResult: "failed" });
      expect(await runReporter(w.ctx)).toMatchObject({ written: 1 });
      expect(await w.meterTotal(accountId, "clicks", CYCLE)).toBe(3);
    });

    test("a 429 waits RateLimit-Reset: the cycle is marked again for then, and the rest of the run is put off", async () => {
      const others = [await w.account(ANCHOR), await w.account(ANCHOR)];
      await clicks(2);
      for (const other of others) await clicks(1, CYCLE, other);
      // Every call in this run answers 429 with a reset of 40 s.
      await w.fault({ kind: "rate_limit", count: 100, resetSeconds: 40 });
      const first = await runReporter(w.ctx, { limit: 1 });
      expect(first).toMatchObject({ taken: 1, rateLimited: 1 });
      const second = await runReporter(w.ctx);
      // Two left to take; the batch is written together, both throttled.
      expect(second.taken).toBe(2);
      await w.clearFaults();
      // Before the reset nothing is due.
      w.setNow(w.now() + 39_000);
      expect((await runReporter(w.ctx)).taken).toBe(0);
      w.setNow(w.now() + 1_000);
      expect(await runReporter(w.ctx)).toMatchObject({ taken: 3, written: 3 });
      expect(await w.meterTotal(accountId, "clicks", CYCLE)).toBe(2);
      expect((await detail()).reports.map((r) => r.result)).toEqual(["ok", "rate_limited"]);
    });

    test("writes 10 at a time: at most 10 writes in flight, and a batch starts only when the one before it has finished", async () => {
      const many = [];
      for (let i = 0; i < 25; i++) many.push(await w.account(ANCHOR));
      for (const id of many) await clicks(1, CYCLE, id);
      let inFlight = 0;
      let maxInFlight = 0;
      const starts: number[] = [];
      let finished = 0;
      const counting = {
        ...w.ctx,
        provider: Object.assign(Object.create(w.provider) as typeof w.provider, {
          async setUsage(...args: Parameters<typeof w.provider.setUsage>) {
            starts.push(finished);
            maxInFlight = Math.max(maxInFlight, ++inFlight);
            await new Promise((resolve) => setImmediate(resolve));
            await w.provider.setUsage(...args);
            inFlight--;
            finished++;
          },
        }),
      };
      expect((await runReporter(counting)).written).toBe(25);
      expect(maxInFlight).toBe(10);
      // Writes 1–10 start with none finished, 11–20 after 10 finished, 21–25 after 20.
      expect(starts).toEqual([...Array(10).fill(0), ...Array(10).fill(10), ...Array(5).fill(20)]);
    }, 60_000);

    test("writes at most 100 cycles per run", async () => {
      const many = [];
      for (let i = 0; i < 105; i++) many.push(await w.account(ANCHOR));
      for (const id of many) await clicks(1, CYCLE, id);
      expect((await runReporter(w.ctx)).written).toBe(100);
      expect((await runReporter(w.ctx)).written).toBe(5);
    }, 120_000);

    test("a closed cycle is never written: it goes to the review list", async () => {
      await clicks(4);
      w.setNow(NEXT_CYCLE_START);
      const summary = await runReporter(w.ctx);
      expect(summary).toMatchObject({ taken: 0, closed: 1 });
      expect(await w.meterTotal(accountId, "clicks", CYCLE)).toBe(0);
      const { reviews } = await w.engine.run(meter.listReviews, {});
      expect(reviews).toEqual([expect.objectContaining({ accountId, feature: "clicks", cycle: CYCLE, status: "open", ledgerUnits: 4 })]);
      expect(reviews[0]!.reason).toContain("closed before its total (4) was reported");
      const resolved = await w.engine.run(meter.resolveReview, { accountId, feature: "clicks", cycle: CYCLE, resolution: "invoiced by hand" });
      expect(resolved).toMatchObject({ status: "resolved", resolution: "invoiced by hand" });
      expect((await w.engine.run(meter.listReviews, {})).reviews).toEqual([]);
    });

    test("a run that dies after taking its marks gives them back when its lease runs out", async () => {
      await clicks(5);
      const taken = await w.engine.run(meter.takeMarks, {});
      expect(taken.taken).toHaveLength(1);
      // The process dies here: no write, no recordReports.
      expect((await runReporter(w.ctx)).taken).toBe(0);
      w.setNow(w.now() + meter.REPORT_LEASE_MS);
      const summary = await runReporter(w.ctx);
      expect(summary).toMatchObject({ leasesExpired: 1, written: 1 });
      expect(await w.meterTotal(accountId, "clicks", CYCLE)).toBe(5);
    });
  });

  describe("reconciler", () => {
    test("match: ledger, sent log and meter agree; a second run adds no evidence row", async () => {
      await clicks(6);
      await runReporter(w.ctx);
      const run = await reconcile();
      expect(run.error).toBeNull();
      expect(run.findings[0]).toMatchObject({ added: true, evidence: { verdict: "match", ledgerUnits: 6, sentUnits: 6, providerUnits: 6, outcome: "none" } });
      const again = await reconcile();
      expect(again.evidenceRows).toBe(0);
      expect(again.findings[0]!.added).toBe(false);
      expect((await detail()).evidence).toHaveLength(1);
    });

    test("under-billed after a late click: repaired with the ledger total, read back, and the next run matches with no new row", async () => {
      await clicks(10);
      await runReporter(w.ctx);
      await clicks(3); // late: after the report
      const run = await reconcile();
      const e = run.findings[0]!.evidence;
      expect(e).toMatchObject({ verdict: "under_billed", ledgerUnits: 13, sentUnits: 10, providerUnits: 10, repairUnits: 13, readBackUnits: 13, outcome: "repaired_confirmed" });
      expect(e.cause).toContain("The ledger changed after the last report. A late click or a correction arrived.");
      expect(e.cause).toContain("Repaired and confirmed");
      expect(run.repairs).toBe(1);
      expect(await w.meterTotal(accountId, "clicks", CYCLE)).toBe(13);
      const d = await detail();
      expect(d.reports[0]).toMatchObject({ sentBy: "reconciler", totalUnits: 13, result: "ok" });
      const next = await reconcile();
      expect(next.findings[0]).toMatchObject({ added: false });
      expect((await detail()).evidence).toHaveLength(1);
    });

    test("over-billed when the meter moved without a report: the repair sets it back to the ledger", async () => {
      await clicks(5);
      await w.fault({ kind: "drift", amount: 4, count: 1 });
      await runReporter(w.ctx); // lands at 9
      expect(await w.meterTotal(accountId, "clicks", CYCLE)).toBe(9);
      const e = (await reconcile()).findings[0]!.evidence;
      expect(e).toMatchObject({ verdict: "over_billed", providerUnits: 9, ledgerUnits: 5, readBackUnits: 5, outcome: "repaired_confirmed" });
      expect(e.cause).toContain("moved without a report from the app (last sent 5, meter 9)");
    });

    test("a failed last report is named as the cause", async () => {
      await clicks(2);
      await w.fault({ kind: "fail_writes", count: 1 });
      await runReporter(w.ctx);
      const e = (await reconcile()).findings[0]!.evidence;
      expect(e).toMatchObject({ verdict: "under_billed", lastReportFailed: true, outcome: "repaired_confirmed" });
      expect(e.cause).toMatch(/^The last report failed, so the meter kept an older total\./);
    });

    test("unreadable: a meter that cannot be read is never taken as zero and nothing is written", async () => {
      await clicks(2);
      await w.fault({ kind: "hang", count: 1 });
      const run = await reconcile();
      expect(run.error).toBeNull();
      expect(run.findings[0]!.evidence).toMatchObject({ verdict: "unreadable", providerUnits: null, repairUnits: null, outcome: "none" });
      expect((await detail()).reports).toEqual([]);
    });

    test("closed-cycle drift is flagged for review and not repaired", async () => {
      await clicks(3);
      w.setNow(NEXT_CYCLE_START + 1);
      const e = (await reconcile()).findings[0]!.evidence;
      expect(e).toMatchObject({ verdict: "closed_cycle_drift", closed: true, ledgerUnits: 3, providerUnits: 0, repairUnits: null, outcome: "review" });
      expect(await w.meterTotal(accountId, "clicks", CYCLE)).toBe(0);
      expect((await w.engine.run(meter.listReviews, {})).reviews[0]).toMatchObject({ cycle: CYCLE, providerUnits: 0, ledgerUnits: 3 });
    });

    test("a repair whose read-back differs is not confirmed, and the run ends with an error", async () => {
      await clicks(4);
      await runReporter(w.ctx);
      await clicks(1);
      await w.fault({ kind: "drift", amount: 1, count: 1 }); // the repair write lands 1 off
      const run = await reconcile();
      expect(run.error).toContain("wrote 5 but read back 6");
      expect(run.findings[0]!.evidence).toMatchObject({ outcome: "repair_unconfirmed", repairUnits: 5, readBackUnits: 6 });
      expect(run.findings[0]!.evidence.cause).toContain("not confirmed");
      const runs = await w.engine.run(meter.listRuns, {});
      expect(runs.runs[0]).toMatchObject({ id: run.run.id, error: expect.stringContaining("read back 6") });
      // The next run repairs it for real.
      const next = await reconcile();
      expect(next.error).toBeNull();
      expect(next.findings[0]!.evidence).toMatchObject({ verdict: "over_billed", outcome: "repaired_confirmed" });
    });

    test("a failed repair write ends the run with an error and the meter is left for the next run", async () => {
      await clicks(4);
      await w.fault({ kind: "fail_writes", count: 2 });
      await runReporter(w.ctx);
      const run = await reconcile();
      expect(run.error).toContain("repair write of 4 failed");
      expect(run.findings[0]!.evidence).toMatchObject({ outcome: "repair_unconfirmed", readBackUnits: null });
      expect((await detail()).reports.map((r) => [r.sentBy, r.result])).toEqual([
        ["reconciler", "failed"],
        ["reporter", "failed"],
      ]);
    });

    test("a counter that differs from the ledger is rebuilt, and the evidence says so", async () => {
      await clicks(20);
      await runReporter(w.ctx);
      await w.damageCounter(accountId, "clicks", CYCLE, 5);
      expect((await w.engine.run(usage.total, { accountId, feature: "clicks", cycle: CYCLE })).units).toBe(25);
      const run = await reconcile();
      expect(run.countersRebuilt).toBe(1);
      expect(run.findings[0]!.evidence).toMatchObject({ countersRebuilt: true, counterUnits: 25, ledgerUnits: 20, verdict: "match" });
      expect((await w.engine.run(usage.total, { accountId, feature: "clicks", cycle: CYCLE })).units).toBe(20);
      // The counter is whole again: the next run rebuilds nothing and adds no row.
      const next = await reconcile();
      expect(next).toMatchObject({ countersRebuilt: 0, evidenceRows: 0 });
    });

    test("pages of a cycle's ledger add up exactly, none missed or repeated, while rows keep arriving; the check adds the rows after the last page", async () => {
      await clicks(30);
      await w.engine.run(usage.record, { key: "corr", accountId, feature: "clicks", cycle: CYCLE, units: -1, source: "correction" });
      let after: string | null = null;
      let sum = 0;
      let rows = 0;
      for (;;) {
        const page: ResultOf<typeof meter.sumLedgerPage> = await w.engine.run(meter.sumLedgerPage, {
          accountId,
          feature: "clicks",
          cycle: CYCLE,
          after,
          limit: 7,
        });
        sum += page.units;
        rows += page.rows;
        after = page.cursor;
        if (rows === 14) await clicks(2); // arrive mid-way: later pages must see them once
        if (page.done) break;
      }
      expect(rows).toBe(33);
      expect(sum).toBe(31);
      await clicks(3); // after the last page: the check transaction adds them
      const check = await w.engine.run(meter.checkCounters, { accountId, feature: "clicks", cycle: CYCLE, ledgerUnits: sum, after, rebuildIfDifference: null });
      expect(check).toEqual({ status: "equal", ledgerUnits: 34, counterUnits: 34 });
    });

    // Skipped on Convex on purpose, and the title says so in every report: 4,000 rows through convex-test take
    // most of a minute, and the paging is the same script on both engines (the 33-row test above pages on both).
    test.skipIf(_name === "convex")("a cycle of more than one page of 4,000 rows sums exactly (embedded engine only: too slow in convex-test; paging is covered on both by the test above)", async () => {
      const rows = meter.LEDGER_PAGE_ROWS + 37;
      for (let i = 0; i < rows; i += 500) {
        await Promise.all(
          Array.from({ length: Math.min(500, rows - i) }, (_, j) =>
            w.engine.run(usage.record, { key: `bulk-${i + j}`, accountId, feature: "clicks", cycle: CYCLE, units: 1, source: "click" }),
          ),
        );
      }
      const run = await reconcile();
      expect(run.findings[0]!.evidence).toMatchObject({ ledgerUnits: rows, counterUnits: rows });
    }, 120_000);

    test("runs over every account, 50 a page, and records the run", async () => {
      const others = [];
      for (let i = 0; i < 55; i++) others.push(await w.account(ANCHOR));
      for (const id of others) await clicks(1, CYCLE, id);
      const run = await runReconciler(w.ctx, { trigger: "nightly" });
      expect(run).toMatchObject({ accounts: 56, cycles: 55, error: null });
      expect((await w.engine.run(meter.getRun, { runId: run.run.id })).run).toMatchObject({ trigger: "nightly", accounts: 56, cycles: 55, evidenceRows: 55 });
    }, 120_000);
  });

  describe("the cycle anchor and the reconcile queue", () => {
    test("an anchor is set when the account is connected, must fall on the 1st to the 28th, and is refused once usage exists", async () => {
      const id = await w.account(null);
      await expect(w.engine.run(meter.connectAccount, { accountId: id, agreementStartMs: Date.parse("2026-10-31T10:00:00Z") })).rejects.toMatchObject({
        code: "invalid_input",
      });
      const connected = await w.engine.run(meter.connectAccount, { accountId: id, kindeCustomerId: "customer_abc", agreementId: "agreement_1", agreementStartMs: ANCHOR });
      expect(connected).toEqual({ accountId: id, kindeCustomerId: "customer_abc", agreementId: "agreement_1", cycleAnchorMs: ANCHOR });
      expect((await w.engine.run(accounts.get, { id }))!.cycleAnchorMs).toBe(ANCHOR);
      await w.engine.run(usage.record, { key: "first", accountId: id, feature: "clicks", cycle: CYCLE, units: 1, source: "click" });
      await expect(w.engine.run(meter.connectAccount, { accountId: id, agreementStartMs: ANCHOR + 86_400_000 })).rejects.toMatchObject({ code: "conflict" });
      // The same anchor again, or a new agreement id, is fine.
      expect((await w.engine.run(meter.connectAccount, { accountId: id, agreementStartMs: ANCHOR, agreementId: "agreement_2" })).agreementId).toBe("agreement_2");
    });

    test("a queued request is reconciled by the queue's run, once", async () => {
      await clicks(2);
      await runReporter(w.ctx);
      await w.engine.run(meter.requestReconcile, { accountId, reason: "customer.meter_usage_updated" });
      await w.engine.run(meter.requestReconcile, { accountId, reason: "customer.meter_usage_updated (again)" });
      const run = await runReconcileRequests(w.ctx);
      expect(run).toMatchObject({ accounts: 1, cycles: 1, error: null });
      expect(run!.run.trigger).toBe("requested");
      expect(await runReconcileRequests(w.ctx)).toBeNull();
      await expect(w.engine.run(meter.requestReconcile, { accountId: "acct_00000000000000000000", reason: "x" })).rejects.toMatchObject({ code: "not_found" });
    });
  });
});
