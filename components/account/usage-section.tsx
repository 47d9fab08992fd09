import Link from "next/link";
import type { Account } from "@/lib/accounts/repo";
import { runReconcileAction } from "@/app/app/reconciliation/actions";
import { ActionButton } from "@/components/meter/forms";
import { units, utcTime, VERDICT_TEXT, verdictClass } from "@/components/meter/format";
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
      <ConnectForm accountId={account.id} anchorIso={anchorIso} hasUsage={cycles.length > 0} />
      <table className="w-full border-collapse text-sm">
        <thead>
          <tr className="border-b border-stone-300 text-left text-stone-500">
            <th className="py-2">Feature</th>
            <th>Cycle</th>
            <th className="text-right">Ledger</th>
            <th className="text-right">Last sent</th>
            <th>Last report</th>
            <th>Latest verdict</th>
          </tr>
        </thead>
        <tbody>
          {cycles.map((c) => (
            <tr key={`${c.state.feature}-${c.state.cycle}`} className="border-b border-stone-200">
              <td className="py-2 font-mono">{c.state.feature}</td>
              <td className="font-mono">
                <Link className="underline" href={`/app/reconciliation/${account.id}?feature=${c.state.feature}&cycle=${c.state.cycle}`}>
                  {c.state.cycle}
                </Link>
                {c.closed ? <span className="ml-1 text-xs text-stone-500">closed</span> : null}
              </td>
              <td className="text-right font-mono">{units(c.counterUnits)}</td>
              <td className="text-right font-mono">{units(c.state.sentUnits)}</td>
              <td className="text-xs">{c.state.lastAttemptResult ? `${c.state.lastAttemptResult.replace("_", " ")} at ${utcTime(c.state.lastAttemptAtMs)}` : "—"}</td>
              <td>{c.latest ? <span className={`rounded px-1.5 py-0.5 text-xs font-semibold ${verdictClass(c.latest.verdict)}`}>{VERDICT_TEXT[c.latest.verdict]}</span> : "not checked"}</td>
            </tr>
          ))}
          {cycles.length === 0 ? (
            <tr>
              <td colSpan={6} className="py-4 text-center text-stone-500">
                No usage yet.
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
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
