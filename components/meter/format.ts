/** Display helpers for the meter's pages. */
export const utcTime = (ms: number | null | undefined) => (ms === null || ms === undefined ? "—" : `${new Date(ms).toISOString().replace("T", " ").slice(0, 19)} UTC`);

export const units = (n: number | null | undefined) => (n === null || n === undefined ? "—" : n.toLocaleString("en"));

export const VERDICT_TEXT: Record<string, string> = {
  unreadable: "unreadable",
  match: "match",
  closed_cycle_drift: "closed-cycle drift",
  over_billed: "over-billed",
  under_billed: "under-billed",
};

export const OUTCOME_TEXT: Record<string, string> = {
  none: "",
  repaired_confirmed: "repaired and confirmed",
  repair_unconfirmed: "repair NOT confirmed",
  review: "on the review list",
};

export function verdictClass(verdict: string): string {
  if (verdict === "match") return "bg-green-100 text-green-900";
  if (verdict === "unreadable") return "bg-stone-200 text-stone-800";
  return "bg-amber-100 text-amber-900";
}
