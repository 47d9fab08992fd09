/** The meter pages' tables: one header style, one "nothing here" row, one verdict badge. */
import Link from "next/link";
import type { ReactNode } from "react";
import { OUTCOME_TEXT, VERDICT_TEXT, verdictClass } from "./format";

export type Column = string | { label: string; right?: boolean; className?: string };

export function Table({
  columns,
  empty,
  testId,
  className = "w-full",
  children,
}: {
  columns: Column[];
  /** Shown as the only row when set (pass it when there are no rows). */
  empty?: string | null;
  testId?: string;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <table className={`${className} border-collapse text-sm [&_td]:pr-3 [&_th]:pr-3`} data-testid={testId}>
      <thead>
        <tr className="border-b border-stone-300 text-left text-stone-500">
          {columns.map((c, i) => {
            const column = typeof c === "string" ? { label: c } : c;
            const classes = [i === 0 ? "py-2" : "", column.right ? "text-right" : "", column.className ?? ""].filter(Boolean).join(" ");
            return (
              <th key={`${i}-${column.label}`} className={classes || undefined}>
                {column.label}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {children}
        {empty ? (
          <tr>
            <td colSpan={columns.length} className="py-4 text-center text-stone-500">
              {empty}
            </td>
          </tr>
        ) : null}
      </tbody>
    </table>
  );
}

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
