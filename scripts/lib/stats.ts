/** Percentiles and tables for the benchmark and load scripts. */
export function percentile(sortedMs: number[], p: number): number {
  if (sortedMs.length === 0) return Number.NaN;
  const index = Math.min(sortedMs.length - 1, Math.max(0, Math.ceil((p / 100) * sortedMs.length) - 1));
  return sortedMs[index]!;
}

export function summarize(latenciesMs: number[]): { p50: number; p95: number; p99: number; max: number } {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), max: sorted.at(-1) ?? Number.NaN };
}

export function table(rows: Record<string, string | number>[]): string {
  if (rows.length === 0) return "";
  const keys = Object.keys(rows[0]!);
  const cells = [keys, ...rows.map((r) => keys.map((k) => String(r[k])))];
  const widths = keys.map((_, i) => Math.max(...cells.map((c) => c[i]!.length)));
  return cells.map((c, ri) => c.map((v, i) => (ri === 0 || Number.isNaN(Number(v)) ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join("  ")).join("\n");
}

export const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "-");
