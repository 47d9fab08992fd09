import Link from "next/link";
import type { Account } from "@/lib/accounts/repo";
import { runReconcileAction } from "@/app/app/reconciliation/actions";
import { ActionButton } from "@/components/meter/forms";
import { units, utcTime } from "@/components/meter/format";
import { CycleCell, VerdictBadge } from "@/components/meter/table";
import { Table } from "@/components/ui/table";
import * as links from "@/lib/links/scripts";
import * as meter from "@/lib/meter/scripts";
import { getRuntime } from "@/lib/runtime";
import { ConnectForm } from "./connect-form";

/** The meter's part of an account page: its connection and cycle anchor, its usage per cycle with the latest verdict, and its links. */
export async function UsageSection({ account }: { account: Account }) {
  const { engine } = getRuntime();
  const [{ cycles }, { links: own }] = await Promise.all([
    engine.run(meter.accountOverview, { accountId: account.id, limit: 12 }),
    engine.run(links.list, { accountId: account.id, limit: 20 }),
  ]);
  const anchorIso = account.cycleAnchorMs === null ? "" : new Date(account.cycleAnchorMs).toISOString().slice(0, 16);
  return (
    <section aria-label="Usage" className="max-w-5xl space-y-4">
      <h2 className="text-lg font-semibold">Usage and meter</h2>
      <ConnectForm
        accountId={account.id}
        kindeCustomerId={account.kindeCustomerId ?? ""}
        agreementId={account.agreementId ?? ""}
        anchorIso={anchorIso}
        hasUsage={cycles.length > 0}
      />
      <Table
        columns={["Feature", "Cycle", { label: "Ledger", right: true }, { label: "Last sent", right: true }, "Last report", "Latest verdict"]}
        empty={cycles.length === 0 ? "No usage yet." : null}
      >
          {cycles.map((c) => (
            <tr key={`${c.state.feature}-${c.state.cycle}`} className="border-b border-stone-200">
              <td className="py-2 font-mono">{c.state.feature}</td>
              <CycleCell accountId={account.id} feature={c.state.feature} cycle={c.state.cycle} closed={c.closed} />
              <td className="text-right font-mono">{units(c.counterUnits)}</td>
              <td className="text-right font-mono">{units(c.state.sentUnits)}</td>
              <td className="text-xs">{c.state.lastAttemptResult ? `${c.state.lastAttemptResult.replace("_", " ")} at ${utcTime(c.state.lastAttemptAtMs)}` : "—"}</td>
              <td>{c.latest ? <VerdictBadge verdict={c.latest.verdict} outcome={c.latest.outcome} /> : "not checked"}</td>
            </tr>
          ))}
      </Table>
      <ActionButton action={runReconcileAction} label="Reconcile this account now" fields={{ accountId: account.id }} secondary />
      <div className="text-sm">
        <span className="text-stone-500">Links: </span>
        {own.length === 0 ? (
          <Link className="underline" href="/app/links">
            none yet
          </Link>
        ) : (
          own.map((l, i) => (
            <span key={l.code}>
              {i > 0 ? ", " : ""}
              <Link className="font-mono underline" href={`/app/links/${l.code}`}>
                {l.code}
              </Link>
            </span>
          ))
        )}
      </div>
    </section>
  );
}
