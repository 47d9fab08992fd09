/**
 * The dashboard's one table: header style, column alignment, a "nothing here"
 * row. Used by every table under app/app/** and app/account/** (rows are the
 * caller's <tr>s, so cells keep their own content and classes).
 */
import type { ReactNode } from "react";

export type Column = string | { label: string; right?: boolean; className?: string };

export function Table({
  columns,
  empty,
  testId,
  className = "w-full",
  size = "sm",
  children,
}: {
  columns: Column[];
  /** Shown as the only row when set (pass it when there are no rows). */
  empty?: string | null;
  testId?: string;
  className?: string;
  /** "xs" for dense tables (timelines inside a section). */
  size?: "sm" | "xs";
  children?: ReactNode;
}) {
  return (
    <table className={`${className} border-collapse ${size === "xs" ? "text-xs" : "text-sm"} [&_td]:pr-3 [&_th]:pr-3`} data-testid={testId}>
      <thead>
        <tr className="border-b border-stone-300 text-left text-stone-500">
          {columns.map((c, i) => {
            const column = typeof c === "string" ? { label: c } : c;
            const classes = [i === 0 ? (size === "xs" ? "py-1" : "py-2") : "", column.right ? "text-right" : "", column.className ?? ""].filter(Boolean).join(" ");
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

