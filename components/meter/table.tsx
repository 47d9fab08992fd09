/** The meter pages' cells: a verdict badge, a cycle linking to its evidence, the meter as a finding saw it. */
import Link from "next/link";
import { OUTCOME_TEXT, VERDICT_TEXT, verdictClass } from "./format";

/** A verdict as a coloured badge, with what became of it (repaired, review) below. */
export function VerdictBadge({ verdict, outcome }: { verdict: string; outcome?: string }) {
  return (
    <>
      <span className={`rounded px-1.5 py-0.5 text-xs font-semibold ${verdictClass(verdict)}`} data-testid="verdict">
        {VERDICT_TEXT[verdict]}
      </span>
      {outcome && OUTCOME_TEXT[outcome] ? <div className="mt-1 text-xs text-stone-600">{OUTCOME_TEXT[outcome]}</div> : null}
    </>
  );
}

/** A cycle's name linking to its evidence on the account's Reconciliation page, marked when closed. */
export function CycleCell({ accountId, feature, cycle, closed }: { accountId: string; feature: string; cycle: string; closed: boolean }) {
  return (
    <td className="font-mono">
      <Link className="underline" href={`/app/reconciliation/${accountId}?feature=${feature}&cycle=${cycle}`}>
        {cycle}
      </Link>
      {closed ? <span className="ml-1 text-xs text-stone-500">closed</span> : null}
    </td>
  );
}

/** The meter as a finding saw it: as read, and after a repair what was read back ("441 → 15"). */
export function meterText(e: { providerUnits: number | null; repairUnits: number | null; readBackUnits: number | null }): string {
  const read = e.providerUnits === null ? "unreadable" : e.providerUnits.toLocaleString("en");
  if (e.repairUnits === null) return read;
  return `${read} → ${e.readBackUnits === null ? "?" : e.readBackUnits.toLocaleString("en")}`;
}
