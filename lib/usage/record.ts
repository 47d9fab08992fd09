/**
 * Records one unit of usage inside the caller's transaction: the ledger row,
 * its counter shard and the cycle's mark commit together or not at all.
 * A key seen before writes nothing and returns the stored row, so every
 * retry of a click or a settlement is harmless.
 */
import { invariant } from "../errors";
import type { Tx } from "../store/port";
import { COUNTER_SHARDS, type UsageEntry } from "./repo";

export type UsageInput = Omit<UsageEntry, "atMs" | "ref" | "reason"> & { atMs?: number; ref?: string | null; reason?: string | null };

export async function recordUsage(tx: Tx, input: UsageInput): Promise<{ recorded: boolean; entry: UsageEntry }> {
  invariant(Number.isSafeInteger(input.units), `usage units must be whole numbers, got ${input.units}`);
  invariant(input.units >= 0 || input.source === "correction", "only a correction may have negative units");
  const existing = await tx.store.usage.getEntry(input.key);
  if (existing) return { recorded: false, entry: existing };
  const entry: UsageEntry = { ...input, atMs: input.atMs ?? tx.nowMs, ref: input.ref ?? null, reason: input.reason ?? null };
  await tx.store.usage.insertEntry(entry);
  const shard = Math.floor(tx.random() * COUNTER_SHARDS);
  await tx.store.usage.addToShard(entry.accountId, entry.feature, entry.cycle, shard, entry.units);
  // Marked once: more writes while it is marked add no more writes to the mark.
  await markCycle(tx, entry.accountId, entry.feature, entry.cycle, tx.nowMs);
  return { recorded: true, entry };
}

/**
 * Marks a cycle as changed (the meter may be behind): inserts its mark, or
 * moves an existing mark's due time later, never earlier. The first mark of a
 * cycle also makes its meter_cycles row, so the reconciler finds every cycle
 * that has usage from that table alone.
 */
export async function markCycle(tx: Tx, accountId: string, feature: string, cycle: string, dueAtMs: number): Promise<void> {
  const mark = await tx.store.usage.getMark(accountId, feature, cycle);
  if (mark) {
    if (dueAtMs > mark.dueAtMs) await tx.store.usage.setMarkDue(accountId, feature, cycle, dueAtMs);
    return;
  }
  await tx.store.usage.insertMark({ accountId, feature, cycle, markedAtMs: tx.nowMs, dueAtMs });
  if (!(await tx.store.meter.getCycle(accountId, feature, cycle))) {
    await tx.store.meter.insertCycle({
      accountId,
      feature,
      cycle,
      firstUsageAtMs: tx.nowMs,
      sentUnits: null,
      sentAtMs: null,
      lastAttemptUnits: null,
      lastAttemptAtMs: null,
      lastAttemptResult: null,
      leaseUntilMs: 0,
    });
  }
}

/** The counter total of one cycle: the sum of its shard rows. */
export async function counterTotal(tx: Tx, accountId: string, feature: string, cycle: string): Promise<number> {
  const shards = await tx.store.usage.readShards(accountId, feature, cycle);
  return shards.reduce((sum, units) => sum + units, 0);
}
