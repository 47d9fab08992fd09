import Link from "next/link";
import { FaultSwitches } from "@/components/fault-switches";
import { ActionButton } from "@/components/meter/forms";
import { units, utcTime } from "@/components/meter/format";
import { CycleCell, meterText, VerdictBadge } from "@/components/meter/table";
import { Table } from "@/components/ui/table";
import { PageHeader } from "@/components/page-header";
import * as accounts from "@/lib/accounts/scripts";
import * as meter from "@/lib/meter/scripts";
import { getRuntime } from "@/lib/runtime";
import * as standin from "@/lib/standin/scripts";
import { clearFaultAction, setFaultAction } from "../provider/actions";
import { runReconcileAction, runReporterAction } from "./actions";
import { requireOperatorSession } from "@/lib/http/session";

export const dynamic = "force-dynamic";

/**
 * Per account and feature: the ledger, the last total sent and the meter, the
 * verdict and its cause, with Run-now and the stand-in's fault switches, so a
 * person can cause a drift and watch it found and repaired.
 */
export default async function ReconciliationPage({ searchParams }: { searchParams: Promise<{ after?: string }> }) {
  await requireOperatorSession();
  const { after } = await searchParams;
  const { engine, provider } = getRuntime();
  const [page, { runs }, { faults }] = await Promise.all([
    engine.run(accounts.list, { limit: 50, ...(after ? { afterId: after } : {}) }),
    engine.run(meter.listRuns, { limit: 8 }),
    engine.run(standin.faults, {}),
  ]);
  const overviews = await Promise.all(page.accounts.map(async (a) => ({ account: a, ...(await engine.run(meter.accountOverview, { accountId: a.id, limit: 6 })) })));
  return (
    <>
      <PageHeader title="Reconciliation">
        Is the provider&rsquo;s meter equal to what really happened? The ledger is the record; the meter is a copy. The reporter sends totals
        every minute; the reconciler compares the ledger, the last total sent and the meter every night and on demand, repairs an open cycle
        with an absolute write of the ledger total, reads it back, and keeps the evidence.
      </PageHeader>

      <section className="mb-6 flex flex-wrap items-start gap-6">
        <div>
          <h2 className="mb-1 text-sm font-semibold">Reconcile every account now</h2>
          <ActionButton action={runReconcileAction} label="Run now" />
        </div>
        <div>
          <h2 className="mb-1 text-sm font-semibold">Send marked totals now</h2>
          <ActionButton action={runReporterAction} label="Run the reporter" secondary />
        </div>
        <p className="max-w-sm text-sm text-stone-600">
          Provider: <span className="font-medium">{provider.name === "kinde" ? "Kinde" : "the stand-in"}</span>.{" "}
          {provider.name === "kinde" ? "The fault switches below act on the stand-in only." : "Turn a switch on, click a link, and run the reporter and the reconciler."}
        </p>
      </section>

      <div className="mb-8">
        <FaultSwitches faults={faults} setFault={setFaultAction} clearFault={clearFaultAction} />
      </div>

      <section className="mb-8">
        <h2 className="mb-2 font-semibold">Accounts</h2>
        <Table
          testId="reconciliation-table"
          columns={["Account", "Feature", "Cycle", { label: "Ledger", right: true }, { label: "Last sent", right: true }, { label: "Meter", right: true }, "Verdict", { label: "Cause", className: "w-[28rem]" }, "Checked", ""]}
          empty={page.accounts.length === 0 ? "No accounts yet." : null}
        >
            {overviews.flatMap(({ account, cycles }) =>
              cycles.length === 0
                ? [
                    <tr key={account.id} className="border-b border-stone-200">
                      <td className="py-2 font-medium">{account.name}</td>
                      <td colSpan={9} className="text-stone-500">
                        No usage yet.
                      </td>
                    </tr>,
                  ]
                : cycles.map((c, i) => {
                    const e = c.latest;
                    return (
                      <tr key={`${account.id}-${c.state.feature}-${c.state.cycle}`} className="border-b border-stone-200 align-top" data-cycle={`${c.state.feature} ${c.state.cycle}`}>
                        <td className="py-2 font-medium">
                          {i === 0 ? (
                            <Link className="underline" href={`/app/reconciliation/${account.id}`}>
                              {account.name}
                            </Link>
                          ) : null}
                        </td>
                        <td className="font-mono">{c.state.feature}</td>
                        <CycleCell accountId={account.id} feature={c.state.feature} cycle={c.state.cycle} closed={c.closed} />
                        <td className="text-right font-mono" data-testid="ledger">{units(c.counterUnits)}</td>
                        <td className="text-right font-mono">{units(c.state.sentUnits)}</td>
                        <td className="whitespace-nowrap text-right font-mono" data-testid="meter">{e ? meterText(e) : "—"}</td>
                        <td>{e ? <VerdictBadge verdict={e.verdict} outcome={e.outcome} /> : <span className="text-stone-500">not checked</span>}</td>
                        <td className="text-stone-700" data-testid="cause">{e?.cause ?? ""}</td>
                        <td className="whitespace-nowrap text-xs text-stone-500">{e ? utcTime(e.atMs) : ""}</td>
                        <td>{i === 0 ? <ActionButton action={runReconcileAction} label="Run now" fields={{ accountId: account.id }} secondary /> : null}</td>
                      </tr>
                    );
                  }),
            )}
        </Table>
        <p className="mt-2 text-xs text-stone-500">
          Ledger: the counter now (the reconciler proves it against the ledger rows). Meter: what the provider held at the last check, and
          after a repair what was read back. A finding is stored only when the numbers changed.
        </p>
        {page.nextAfterId ? (
          <a className="mt-2 inline-block underline" href={`/app/reconciliation?after=${page.nextAfterId}`}>
            Next page
          </a>
        ) : null}
      </section>

      <section>
        <h2 className="mb-2 font-semibold">Recent reconciler runs</h2>
        <Table
          className="w-full max-w-5xl"
          columns={["Started", "Trigger", ...["Accounts", "Cycles", "New evidence", "Repairs", "Counters rebuilt"].map((label) => ({ label, right: true })), "Result"]}
          empty={runs.length === 0 ? "No runs yet. The reconciler runs nightly after 03:00 UTC, for queued requests, and when you press Run now." : null}
        >
            {runs.map((r) => (
              <tr key={r.id} className="border-b border-stone-200 align-top">
                <td className="py-2 whitespace-nowrap">{utcTime(r.startedAtMs)}</td>
                <td>{r.trigger.replace("_", " ")}</td>
                <td className="text-right">{r.accounts}</td>
                <td className="text-right">{r.cycles}</td>
                <td className="text-right">{r.evidenceRows}</td>
                <td className="text-right">{r.repairs}</td>
                <td className="text-right">{r.countersRebuilt}</td>
                <td className={r.error ? "text-red-700" : "text-green-800"}>{r.finishedAtMs === null ? "running" : r.error ? `error: ${r.error}` : "ok"}</td>
              </tr>
            ))}
        </Table>
      </section>
    </>
  );
}
