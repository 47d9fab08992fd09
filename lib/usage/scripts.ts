import { z } from "zod";
import { actorSchema, recordAudit } from "../audit/scripts";
import { AppError } from "../errors";
import { LINK_CLICK_SHARDS } from "../links/repo";
import { utcDay } from "../links/rules";
import { mutation, query } from "../scripts/define";
import type { Tx } from "../store/port";
import { counterTotal, recordUsage } from "./record";

export const featureCode = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, "a feature code such as tokens or clicks");
export const cycleName = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "a cycle name such as 2026-10");
const accountId = z.string().regex(/^acct_[0-9a-z]{20}$/, "an account id (acct_ followed by 20 characters)");

export const entrySchema = z.object({
  key: z.string(),
  accountId: z.string(),
  feature: z.string(),
  cycle: z.string(),
  units: z.number(),
  atMs: z.number(),
  source: z.enum(["click", "job", "correction"]),
  ref: z.string().nullable(),
  reason: z.string().nullable(),
});

/** Records usage directly (used by tests and tools; the parts record inside their own scripts). */
export const record = mutation(
  "usage.record",
  z.strictObject({
    key: z.string().min(1).max(200),
    accountId,
    feature: featureCode,
    cycle: cycleName,
    units: z.number().int().min(-1_000_000_000).max(1_000_000_000),
    source: z.enum(["click", "job", "correction"]),
    ref: z.string().max(200).nullable().optional(),
    reason: z.string().max(500).nullable().optional(),
  }).refine((a) => a.units >= 0 || a.source === "correction", { path: ["units"], message: "a whole number of at least 0 (only a correction may be negative)" }),
  z.object({ recorded: z.boolean(), entry: entrySchema }),
  async (tx, args) => recordUsage(tx, args),
);

export const total = query(
  "usage.total",
  z.strictObject({ accountId, feature: featureCode, cycle: cycleName }),
  z.object({ units: z.number(), marked: z.boolean() }),
  async (tx, args) => ({
    units: await counterTotal(tx, args.accountId, args.feature, args.cycle),
    marked: (await tx.store.usage.getMark(args.accountId, args.feature, args.cycle)) !== null,
  }),
);

/** The key of the one correction a row may have; a retry of the same correction finds it. */
export const correctionKeyOf = (entryKey: string) => `correction:${entryKey}`;

/**
 * Corrects a ledger row. The ledger is append-only: the correction is a new
 * row with negative units (by default the whole row) in the cycle of the row
 * it corrects, with a reason, so the history stays readable and the cycle is
 * marked for the reporter (a closed cycle goes to the review list). A row has
 * at most one correction; sending the same correction again changes nothing.
 */
export const correct = mutation(
  "usage.correct",
  z.strictObject({
    entryKey: z.string().min(1).max(200),
    units: z.number().int().min(-1_000_000_000).max(-1, "a correction takes units away: a whole number below 0").optional(),
    reason: z.string().trim().min(1, "say why the row is corrected").max(500),
    /** Who corrects it: the audit row commits with the correction. */
    actor: actorSchema.optional(),
  }),
  z.object({ recorded: z.boolean(), entry: entrySchema, corrected: entrySchema }),
  async (tx, args) => {
    const result = await correctEntry(tx, args);
    if (args.actor) {
      await recordAudit(tx, args.actor, "usage.correct", result.corrected.key, result.corrected.accountId, {
        units: result.entry.units,
        cycle: result.entry.cycle,
        reason: args.reason,
        recorded: result.recorded,
      });
    }
    return result;
  },
);

async function correctEntry(tx: Tx, args: { entryKey: string; units?: number; reason: string }) {
  const target = await tx.store.usage.getEntry(args.entryKey);
  if (!target) throw new AppError("not_found", `No ledger row ${args.entryKey}.`);
  if (target.source === "correction") throw new AppError("invalid_input", "entryKey: a correction cannot be corrected; correct the row it corrected");
  if (target.units <= 0) throw new AppError("invalid_input", "entryKey: the row has no units to take away");
  const units = args.units ?? -target.units;
  if (units < -target.units) throw new AppError("invalid_input", `units: the row has ${target.units}, so a correction is at least -${target.units}`);
  const key = correctionKeyOf(target.key);
  const existing = await tx.store.usage.getEntry(key);
  if (existing) {
    if (existing.units !== units) throw new AppError("conflict", `The row ${target.key} was already corrected by ${existing.units}; a row is corrected once.`);
    return { recorded: false, entry: existing, corrected: target };
  }
  const { entry } = await recordUsage(tx, {
    key,
    accountId: target.accountId,
    feature: target.feature,
    cycle: target.cycle,
    units,
    source: "correction",
    ref: target.key,
    reason: args.reason,
  });
  // A corrected click also leaves its link's day tally, on the day it was clicked.
  if (target.source === "click" && target.ref) {
    await tx.store.links.addClicks(target.ref, target.cycle, utcDay(target.atMs), Math.floor(tx.random() * LINK_CLICK_SHARDS), units);
  }
  return { recorded: true, entry, corrected: target };
}

/** The newest ledger rows of one cycle (for the pages and for choosing a row to correct). */
export const recent = query(
  "usage.recent",
  z.strictObject({ accountId, feature: featureCode, cycle: cycleName, limit: z.number().int().min(1).max(200).default(50) }),
  z.object({ entries: z.array(entrySchema) }),
  async (tx, args) => ({ entries: await tx.store.usage.recentEntries(args.accountId, args.feature, args.cycle, args.limit) }),
);
