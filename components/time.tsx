/** A time in UTC, to the second, or a dash. */
export function Time({ ms }: { ms: number | null }) {
  if (ms === null) return <span className="text-stone-400">—</span>;
  return <time dateTime={new Date(ms).toISOString()}>{new Date(ms).toISOString().replace("T", " ").slice(0, 19)} UTC</time>;
}

/** The time of this request. A server component renders once per request (these pages are force-dynamic). */
export function requestTimeMs(): number {
  return Date.now();
}
