import { z } from "zod";
import { mutation, query } from "../scripts/define";
import { counterTotal, recordUsage } from "./record";

export const featureCode = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, "a feature code such as tokens or clicks");
export const cycleName = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "a cycle name such as 2026-10");
const accountId = z.string().regex(/^acct_[0-9a-z]{20}$/, "an account id (acct_ followed by 20 characters)");

const entrySchema = z.object({
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
