/** Times on the dashboard are UTC, to the second. */
export function utc(ms: number | null): string {
  if (ms === null) return "—";
  return `${new Date(ms).toISOString().replace("T", " ").slice(0, 19)} UTC`;
}

export const STATUS_STYLE: Record<string, string> = {
  received: "bg-sky-100 text-sky-900",
  processing: "bg-amber-100 text-amber-900",
  applied: "bg-green-100 text-green-900",
  ignored: "bg-stone-200 text-stone-800",
  failed: "bg-orange-100 text-orange-900",
  dead: "bg-red-600 text-white",
};
