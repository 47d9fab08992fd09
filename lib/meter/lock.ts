/**
 * One meter write per cycle at a time within this process. The reporter's
 * write and the reconciler's repair-and-read-back take the same lock, so a
 * read-back on the embedded engine is never the reporter's write landing in
 * between. (On Convex the reporter and the reconciler are separate actions; a
 * read-back that a concurrent report changed ends that run with an error and
 * the next run settles it.)
 */
const KEY = Symbol.for("tollbooth.meter.locks");
type Holder = { [KEY]?: Map<string, Promise<void>> };

export async function withCycleLock<T>(key: string, work: () => Promise<T>): Promise<T> {
  const holder = globalThis as Holder;
  const locks = (holder[KEY] ??= new Map());
  const previous = locks.get(key) ?? Promise.resolve();
  let release!: () => void;
  const current = new Promise<void>((resolve) => (release = resolve));
  const chained = previous.then(() => current);
  locks.set(key, chained);
  await previous;
  try {
    return await work();
  } finally {
    release();
    if (locks.get(key) === chained) locks.delete(key);
  }
}

export const cycleLockKey = (accountId: string, feature: string, cycle: string) => `${accountId}/${feature}/${cycle}`;
