import Link from "next/link";
import { notFound } from "next/navigation";
import { LedgerMeterChart, type MeterPoint } from "@/components/meter/charts";
import { ActionButton } from "@/components/meter/forms";
import { OUTCOME_TEXT, units, utcTime, VERDICT_TEXT } from "@/components/meter/format";
import { meterText, VerdictBadge } from "@/components/meter/table";
import { Table } from "@/components/ui/table";
import { PageHeader } from "@/components/page-header";
import * as accounts from "@/lib/accounts/scripts";
import * as meter from "@/lib/meter/scripts";
import { requireOperatorSession } from "@/lib/http/session";
import { getRuntime } from "@/lib/runtime";
import { runReconcileAction } from "../actions";

export const dynamic = "force-dynamic";

/** One account's cycles: the three numbers, the evidence history, the sent log, and ledger against meter over time. */
export default async function AccountReconciliation({
  params,
  searchParams,
}: {
  params: Promise<{ accountId: string }>;
  searchParams: Promise<{ feature?: string; cycle?: string }>;
}) {
  await requireOperatorSession();
  const { accountId } = await params;
  const wanted = await searchParams;
  const { engine } = getRuntime();
  const account = /^acct_[0-9a-z]{20}$/.test(accountId) ? await engine.run(accounts.get, { id: accountId }) : null;
  if (!account) notFound();
  const { cycles } = await engine.run(meter.accountOverview, { accountId, limit: 50 });
  const chosen = cycles.find((c) => c.state.feature === wanted.feature && c.state.cycle === wanted.cycle) ?? cycles[0];
  const detail = chosen ? await engine.run(meter.cycleDetail, { accountId, feature: chosen.state.feature, cycle: chosen.state.cycle, limit: 100 }) : null;
  const latest = detail?.evidence[0] ?? null;

  // Ledger and meter as each evidence row found them; totals sent from the sent log.
  const points: MeterPoint[] = detail
    ? [
        // The meter as found, then (a millisecond on) as read back after a repair, so a drift and its repair both show.
        ...detail.evidence.flatMap((e) => [
          { atMs: e.atMs, ledger: e.ledgerUnits, meter: e.providerUnits ?? undefined },
          ...(e.readBackUnits !== null ? [{ atMs: e.atMs + 1, ledger: e.ledgerUnits, meter: e.readBackUnits }] : []),
        ]),
        ...detail.reports.filter((r) => r.result === "ok").map((r) => ({ atMs: r.atMs, sent: r.totalUnits })),
      ].sort((a, b) => a.atMs - b.atMs)
    : [];

  return (
    <>
      <PageHeader title={`Reconciliation: ${account.name}`}>
        <Link className="underline" href="/app/reconciliation">
          All accounts
        </Link>{" "}
        · <Link className="underline" href={`/app/accounts/${account.id}`}>the account</Link> · cycles{" "}
        {account.cycleAnchorMs === null ? "are UTC calendar months" : `start on day ${new Date(account.cycleAnchorMs).getUTCDate()} at ${utcTime(account.cycleAnchorMs).slice(11)}`}
      </PageHeader>
      <div className="mb-6">
        <ActionButton action={runReconcileAction} label="Run now" fields={{ accountId }} />
      </div>
      {cycles.length === 0 ? <p className="text-stone-500">This account has no usage yet.</p> : null}
      <nav className="mb-6 flex flex-wrap gap-2" aria-label="Cycles">
        {cycles.map((c) => {
          const active = chosen && c.state.feature === chosen.state.feature && c.state.cycle === chosen.state.cycle;
          return (
            <Link
              key={`${c.state.feature}-${c.state.cycle}`}
              href={`/app/reconciliation/${accountId}?feature=${c.state.feature}&cycle=${c.state.cycle}`}
              className={`rounded-md border px-3 py-1 font-mono text-sm ${active ? "border-stone-900 bg-stone-900 text-white" : "border-stone-300"}`}
            >
              {c.state.feature} {c.state.cycle}
              {c.closed ? " (closed)" : ""}
            </Link>
          );
        })}
      </nav>
      {chosen && detail ? (
        <>
          <dl className="mb-4 grid max-w-4xl grid-cols-4 gap-3" data-testid="three-numbers">
            {[
              ["Ledger (counter now)", units(detail.counterUnits)],
              ["Last total sent", units(detail.state?.sentUnits)],
              ["Meter (last check)", latest ? meterText(latest) : "—"],
              ["Verdict", latest ? `${VERDICT_TEXT[latest.verdict]}${OUTCOME_TEXT[latest.outcome] ? `, ${OUTCOME_TEXT[latest.outcome]}` : ""}` : "not checked yet"],
            ].map(([label, value]) => (
              <div key={label} className="rounded-lg border border-stone-200 bg-white p-3">
                <dt className="text-xs text-stone-500">{label}</dt>
                <dd className="mt-1 text-xl font-semibold">{value}</dd>
              </div>
            ))}
          </dl>
          {latest ? (
            <p className="mb-6 max-w-4xl text-stone-700" data-testid="latest-cause">
              {latest.cause}
            </p>
          ) : null}
          {detail.review && detail.review.status === "open" ? (
            <p className="mb-6 max-w-4xl rounded-md bg-amber-50 p-3 text-sm text-amber-900">On the review list: {detail.review.reason}</p>
          ) : null}

          <section className="mb-8 max-w-5xl">
            <h2 className="mb-2 font-semibold">Ledger against meter</h2>
            <LedgerMeterChart points={points} />
          </section>

          <section className="mb-8">
            <h2 className="mb-2 font-semibold">Evidence</h2>
            <Table
              testId="evidence"
              columns={[
                "When",
                ...["Ledger", "Counter", "Sent", "Meter"].map((label) => ({ label, right: true })),
                "Verdict",
                { label: "Cause", className: "w-[30rem]" },
                { label: "Repair", right: true },
                { label: "Read back", right: true },
              ]}
              empty={detail.evidence.length === 0 ? "Not reconciled yet." : null}
            >
                {detail.evidence.map((e) => (
                  <tr key={e.id} className="border-b border-stone-200 align-top">
                    <td className="py-2 whitespace-nowrap text-xs">{utcTime(e.atMs)}</td>
                    <td className="text-right font-mono">{units(e.ledgerUnits)}</td>
                    <td className="text-right font-mono">
                      {units(e.counterUnits)}
                      {e.countersRebuilt ? <div className="text-xs text-amber-800">rebuilt</div> : null}
                    </td>
                    <td className="text-right font-mono">{units(e.sentUnits)}</td>
                    <td className="text-right font-mono">{e.providerUnits === null ? "unreadable" : units(e.providerUnits)}</td>
                    <td>
                      <VerdictBadge verdict={e.verdict} outcome={e.outcome} />
                    </td>
                    <td className="text-stone-700">{e.cause}</td>
                    <td className="text-right font-mono">{units(e.repairUnits)}</td>
                    <td className="text-right font-mono">{units(e.readBackUnits)}</td>
                  </tr>
                ))}
            </Table>
          </section>

          <section>
            <h2 className="mb-2 font-semibold">Sent log</h2>
            <Table
              testId="sent-log"
              className="w-full max-w-5xl"
              columns={["When", "By", { label: "Total", right: true }, "Result", "Detail"]}
              empty={detail.reports.length === 0 ? "Nothing sent yet." : null}
            >
                {detail.reports.map((r, i) => (
                  <tr key={i} className="border-b border-stone-200">
                    <td className="py-2 whitespace-nowrap text-xs">{utcTime(r.atMs)}</td>
                    <td>{r.sentBy}</td>
                    <td className="text-right font-mono">{units(r.totalUnits)}</td>
                    <td className={r.result === "ok" ? "text-green-800" : "text-red-700"}>{r.result.replace("_", " ")}</td>
                    <td className="text-xs text-stone-600">{r.detail ?? ""}</td>
                  </tr>
                ))}
            </Table>
          </section>
        </>
      ) : null}
    </>
  );
}
