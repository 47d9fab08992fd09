/**
 * The stand-in billing provider as transaction scripts. Each provider call is
 * one script that first meets the fault switches (consuming them atomically:
 * two concurrent calls never both take the last "fail next write"), then does
 * the work. Provider calls are mutations because meeting a switch writes it.
 * StandinProvider (./provider.ts) runs these and turns outcomes into
 * ProviderErrors; the operator scripts below back the admin API and the
 * Provider page.
 */
import { z } from "zod";
import { actorSchema, recordAudit } from "../audit/scripts";
import { AppError } from "../errors";
import { mutation, query } from "../scripts/define";
import type { Tx } from "../store/port";
import { cycleOf } from "../usage/cycle";
import { DEFAULT_PLAN_CODE, planOf, STANDIN_PLANS } from "./catalog";
import { applyMeterWrite, decideCall, defaultAnchorMs, SCOPE_OF, type StandinOperation } from "./decide";
import type { FaultKind, StandinAgreement, StandinFault } from "./repo";

export const FAULT_KINDS = ["fail_writes", "rate_limit", "drift", "hang", "deny_scope"] as const satisfies readonly FaultKind[];
export const RECORDS_LIMIT_MAX = 200;

const accountId = z.string().regex(/^acct_[0-9a-z]{20}$/, "an account id (acct_ followed by 20 characters)");
const featureCode = z.string().regex(/^[A-Za-z0-9_.\-]{1,100}$/, "a feature code such as tokens or clicks");
const cycle = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "a cycle named YYYY-MM");
const wholeUnits = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

// ---------------------------------------------------------------- call outcomes

const refused = [
  z.object({ outcome: z.literal("hang") }),
  z.object({ outcome: z.literal("rate_limited"), resetSeconds: z.number() }),
  z.object({ outcome: z.literal("not_allowed"), scope: z.string() }),
  z.object({ outcome: z.literal("failed") }),
  z.object({ outcome: z.literal("not_found"), message: z.string() }),
] as const;

type Refusal = z.output<(typeof refused)[number]>;

const agreementOut = z.object({ id: z.string(), planCode: z.string(), anchorMs: z.number(), currentPeriodStartMs: z.number() });

/**
 * Meets the fault switches for one call and applies what it consumed.
 * Returns a refusal, or how far a proceeding write drifts.
 */
async function meetFaults(tx: Tx, operation: StandinOperation): Promise<Refusal | { driftBy: number }> {
  const faults = await tx.store.standin.listFaults();
  const { fate, updates } = decideCall(faults, operation);
  for (const update of updates) {
    if ("delete" in update) await tx.store.standin.deleteFault(update.kind);
    else await tx.store.standin.putFault({ ...faults.find((f) => f.kind === update.kind)!, remaining: update.remaining });
  }
  switch (fate.fate) {
    case "hang":
      return { outcome: "hang" };
    case "rate_limited":
      return { outcome: "rate_limited", resetSeconds: fate.resetSeconds };
    case "not_allowed":
      return { outcome: "not_allowed", scope: fate.scope };
    case "fail":
      return { outcome: "failed" };
    case "proceed":
      return { driftBy: fate.driftBy };
  }
}

/** The account's agreement, made on first use on the account's plan (or Free when the catalog lacks it). */
async function ensureAgreement(tx: Tx, id: string): Promise<StandinAgreement | null> {
  const existing = await tx.store.standin.getAgreement(id);
  if (existing) return existing;
  const account = await tx.store.accounts.get(id);
  if (!account) return null;
  const agreement: StandinAgreement = {
    accountId: id,
    id: tx.newId("agreement"),
    planCode: planOf(account.plan) ? account.plan : DEFAULT_PLAN_CODE,
    anchorMs: defaultAnchorMs(account),
    createdAtMs: tx.nowMs,
    updatedAtMs: tx.nowMs,
  };
  await tx.store.standin.putAgreement(agreement);
  return agreement;
}

const noAccount = (id: string): Refusal => ({ outcome: "not_found", message: `The stand-in has no customer for account ${id}.` });

function agreementView(agreement: StandinAgreement, nowMs: number) {
  return {
    id: agreement.id,
    planCode: agreement.planCode,
    anchorMs: agreement.anchorMs,
    currentPeriodStartMs: cycleOf(nowMs, agreement.anchorMs).startMs,
  };
}

/** The plan's limit unless an operator set one for the account; undefined: the plan does not grant the feature. */
async function effectiveLimit(tx: Tx, agreement: StandinAgreement, feature: string): Promise<number | null | undefined> {
  const override = await tx.store.standin.getOverride(agreement.accountId, feature);
  if (override) return override.limitMax;
  const plan = planOf(agreement.planCode);
  return plan && feature in plan.entitlements ? plan.entitlements[feature] : undefined;
}

export const readLimit = mutation(
  "standin.readLimit",
  z.strictObject({ accountId, featureCode }),
  z.union([...refused, z.object({ outcome: z.literal("ok"), limitMax: z.number().nullable() })]),
  async (tx, args) => {
    const met = await meetFaults(tx, "readLimit");
    if ("outcome" in met) return met;
    const agreement = await ensureAgreement(tx, args.accountId);
    if (!agreement) return noAccount(args.accountId);
    const limitMax = await effectiveLimit(tx, agreement, args.featureCode);
    if (limitMax === undefined) {
      return { outcome: "not_found" as const, message: `Plan ${agreement.planCode} grants no feature ${args.featureCode}.` };
    }
    return { outcome: "ok" as const, limitMax };
  },
);

export const currentAgreement = mutation(
  "standin.currentAgreement",
  z.strictObject({ accountId }),
  z.union([...refused, z.object({ outcome: z.literal("ok"), agreement: agreementOut })]),
  async (tx, args) => {
    const met = await meetFaults(tx, "currentAgreement");
    if ("outcome" in met) return met;
    const agreement = await ensureAgreement(tx, args.accountId);
    if (!agreement) return noAccount(args.accountId);
    return { outcome: "ok" as const, agreement: agreementView(agreement, tx.nowMs) };
  },
);

/**
 * A meter write. The port only sends absolute writes; delta is here because
 * the stand-in models both (and the drift switch is a delta). Each write is a
 * record; the cycle's total is their fold.
 */
export const setUsage = mutation(
  "standin.setUsage",
  z.strictObject({
    accountId,
    featureCode,
    cycle,
    kind: z.enum(["absolute", "delta"]).default("absolute"),
    value: z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
  }),
  z.union([...refused, z.object({ outcome: z.literal("ok"), total: z.number() })]),
  async (tx, args) => {
    if (args.kind === "absolute" && args.value < 0) throw new AppError("invalid_input", "value: an absolute total cannot be negative");
    const met = await meetFaults(tx, "setUsage");
    if ("outcome" in met) return met;
    const agreement = await ensureAgreement(tx, args.accountId);
    if (!agreement) return noAccount(args.accountId);
    const key = [args.accountId, args.featureCode, args.cycle] as const;
    const before = await tx.store.standin.getTotal(...key);
    let total = applyMeterWrite(before?.total ?? 0, args.kind, args.value);
    let records = (before?.records ?? 0) + 1;
    const record = (kind: "absolute" | "delta", value: number, totalAfter: number, source: "write" | "drift") =>
      tx.store.standin.insertRecord({
        id: tx.newId("mrec"),
        accountId: args.accountId,
        featureCode: args.featureCode,
        cycle: args.cycle,
        seq: records,
        kind,
        value,
        totalAfter,
        source,
        recordedAtMs: tx.nowMs,
      });
    await record(args.kind, args.value, total, "write");
    if (met.driftBy !== 0) {
      total = applyMeterWrite(total, "delta", met.driftBy);
      records += 1;
      await record("delta", met.driftBy, total, "drift");
    }
    await tx.store.standin.putTotal({ accountId: args.accountId, featureCode: args.featureCode, cycle: args.cycle, total, records, updatedAtMs: tx.nowMs });
    return { outcome: "ok" as const, total };
  },
);

export const readUsage = mutation(
  "standin.readUsage",
  z.strictObject({ accountId, featureCode, cycle }),
  z.union([...refused, z.object({ outcome: z.literal("ok"), total: z.number(), records: z.number() })]),
  async (tx, args) => {
    const met = await meetFaults(tx, "readUsage");
    if ("outcome" in met) return met;
    const agreement = await ensureAgreement(tx, args.accountId);
    if (!agreement) return noAccount(args.accountId);
    const total = await tx.store.standin.getTotal(args.accountId, args.featureCode, args.cycle);
    // The stand-in knows every write it took, so a cycle never written is a true zero.
    return { outcome: "ok" as const, total: total?.total ?? 0, records: total?.records ?? 0 };
  },
);

// ---------------------------------------------------------------- operator scripts

async function requireAccount(tx: Tx, id: string) {
  const account = await tx.store.accounts.get(id);
  if (!account) throw new AppError("not_found", `No account ${id}.`);
  return account;
}

/** Moves an account to another plan: a new agreement id (as Kinde makes one), the same cycle anchor. */
export const changePlan = mutation(
  "standin.changePlan",
  z.strictObject({ accountId, planCode: z.string().regex(/^[a-z0-9_]{1,40}$/, "a plan code such as free or pro"), actor: actorSchema.optional() }),
  z.object({ agreement: agreementOut, previousPlanCode: z.string().nullable() }),
  async (tx, args) => {
    if (!planOf(args.planCode)) {
      throw new AppError("invalid_input", `planCode: the stand-in has no plan ${args.planCode} (it has ${STANDIN_PLANS.map((p) => p.code).join(", ")})`);
    }
    await requireAccount(tx, args.accountId);
    const current = (await ensureAgreement(tx, args.accountId))!;
    const next: StandinAgreement =
      current.planCode === args.planCode ? current : { ...current, id: tx.newId("agreement"), planCode: args.planCode, updatedAtMs: tx.nowMs };
    if (next !== current) await tx.store.standin.putAgreement(next);
    if (args.actor) await recordAudit(tx, args.actor, "standin.plan", args.accountId, args.accountId, { from: current.planCode, to: next.planCode, agreementId: next.id });
    return { agreement: agreementView(next, tx.nowMs), previousPlanCode: current.planCode };
  },
);

/** An operator's limit for one account and feature; `limitMax` null is unlimited. */
export const setLimit = mutation(
  "standin.setLimit",
  z.strictObject({ accountId, featureCode, limitMax: wholeUnits.nullable(), actor: actorSchema.optional() }),
  z.object({ accountId: z.string(), featureCode: z.string(), limitMax: z.number().nullable(), setAtMs: z.number() }),
  async (tx, args) => {
    await requireAccount(tx, args.accountId);
    const override = { accountId: args.accountId, featureCode: args.featureCode, limitMax: args.limitMax, setAtMs: tx.nowMs };
    await tx.store.standin.putOverride(override);
    if (args.actor) await recordAudit(tx, args.actor, "standin.limit", args.accountId, args.accountId, { featureCode: args.featureCode, limitMax: args.limitMax });
    return override;
  },
);

/** Back to the plan's limit. */
export const clearLimit = mutation(
  "standin.clearLimit",
  z.strictObject({ accountId, featureCode, actor: actorSchema.optional() }),
  z.object({ cleared: z.boolean() }),
  async (tx, args) => {
    await requireAccount(tx, args.accountId);
    const existing = await tx.store.standin.getOverride(args.accountId, args.featureCode);
    if (existing) await tx.store.standin.deleteOverride(args.accountId, args.featureCode);
    if (args.actor) await recordAudit(tx, args.actor, "standin.limit", args.accountId, args.accountId, { featureCode: args.featureCode, limitMax: "plan" });
    return { cleared: existing !== null };
  },
);

export const CONFIGURE_FEATURES_MAX = 20;

/**
 * An account's plan and per-feature limits on the stand-in, set together from
 * the account page: one transaction and one audit row, so a partly applied
 * edit cannot happen. `limits` per feature: a number, null (unlimited) or
 * "plan" (back to the plan's limit); features left out keep what they have.
 */
export const configure = mutation(
  "standin.configure",
  z.strictObject({
    accountId,
    planCode: z.enum(STANDIN_PLANS.map((p) => p.code) as [string, ...string[]], "a plan the stand-in has"),
    limits: z
      .record(featureCode, z.union([wholeUnits, z.null(), z.literal("plan")]))
      .refine((l) => Object.keys(l).length <= CONFIGURE_FEATURES_MAX, `at most ${CONFIGURE_FEATURES_MAX} features`),
    actor: actorSchema.optional(),
  }),
  z.object({ agreementId: z.string(), planCode: z.string(), changed: z.array(z.string()) }),
  async (tx, args) => {
    await requireAccount(tx, args.accountId);
    const current = (await ensureAgreement(tx, args.accountId))!;
    const changed: string[] = [];
    const before: Record<string, unknown> = {};
    let agreement = current;
    if (current.planCode !== args.planCode) {
      agreement = { ...current, id: tx.newId("agreement"), planCode: args.planCode, updatedAtMs: tx.nowMs };
      await tx.store.standin.putAgreement(agreement);
      changed.push("plan");
      before.plan = current.planCode;
    }
    // In feature order: Convex hands a record over with its keys sorted, so both engines see the same order.
    for (const [featureCodeValue, limitMax] of Object.entries(args.limits).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
      const existing = await tx.store.standin.getOverride(args.accountId, featureCodeValue);
      if (limitMax === "plan") {
        if (!existing) continue;
        await tx.store.standin.deleteOverride(args.accountId, featureCodeValue);
      } else {
        if (existing && existing.limitMax === limitMax) continue;
        await tx.store.standin.putOverride({ accountId: args.accountId, featureCode: featureCodeValue, limitMax, setAtMs: tx.nowMs });
      }
      changed.push(featureCodeValue);
      before[featureCodeValue] = existing ? existing.limitMax : "plan";
    }
    if (changed.length > 0 && args.actor) {
      const after = Object.fromEntries(changed.map((c) => [c, c === "plan" ? args.planCode : args.limits[c]]));
      await recordAudit(tx, args.actor, "standin.configure", args.accountId, args.accountId, { before, after, agreementId: agreement.id });
    }
    return { agreementId: agreement.id, planCode: agreement.planCode, changed };
  },
);

/** What the stand-in would answer for an account, feature by feature (read-only: an agreement not made yet shows the account's plan). */
export const limits = query(
  "standin.limits",
  z.strictObject({ accountId }),
  z.object({
    agreementId: z.string().nullable(),
    planCode: z.string(),
    features: z.array(
      z.object({ featureCode: z.string(), planLimitMax: z.number().nullable().optional(), overrideLimitMax: z.number().nullable().optional(), effectiveLimitMax: z.number().nullable() }),
    ),
  }),
  async (tx, args) => {
    const account = await requireAccount(tx, args.accountId);
    const agreement = await tx.store.standin.getAgreement(args.accountId);
    const planCode = agreement?.planCode ?? (planOf(account.plan) ? account.plan : DEFAULT_PLAN_CODE);
    const plan = planOf(planCode)!;
    const overrides = await tx.store.standin.listOverrides(args.accountId, 100);
    const codes = [...new Set([...Object.keys(plan.entitlements), ...overrides.map((o) => o.featureCode)])].sort();
    return {
      agreementId: agreement?.id ?? null,
      planCode,
      features: codes.map((code) => {
        const override = overrides.find((o) => o.featureCode === code);
        const planLimitMax = code in plan.entitlements ? plan.entitlements[code] : undefined;
        return {
          featureCode: code,
          ...(planLimitMax !== undefined ? { planLimitMax } : {}),
          ...(override ? { overrideLimitMax: override.limitMax } : {}),
          effectiveLimitMax: override ? override.limitMax : (planLimitMax ?? null),
        };
      }),
    };
  },
);

export const listOverrides = query(
  "standin.listOverrides",
  z.strictObject({ limit: z.number().int().min(1).max(200).default(100), afterAccountId: accountId.optional(), afterFeatureCode: featureCode.optional() }),
  z.object({ overrides: z.array(z.object({ accountId: z.string(), featureCode: z.string(), limitMax: z.number().nullable(), setAtMs: z.number() })) }),
  async (tx, args) => {
    const after = args.afterAccountId && args.afterFeatureCode ? { accountId: args.afterAccountId, featureCode: args.afterFeatureCode } : undefined;
    return { overrides: await tx.store.standin.listAllOverrides({ limit: args.limit, after }) };
  },
);

export const meterRecords = query(
  "standin.meterRecords",
  z.strictObject({ accountId, featureCode, cycle, limit: z.number().int().min(1).max(RECORDS_LIMIT_MAX).default(20) }),
  z.object({
    total: z.number(),
    records: z.array(
      z.object({ id: z.string(), kind: z.enum(["absolute", "delta"]), value: z.number(), totalAfter: z.number(), source: z.enum(["write", "drift"]), recordedAtMs: z.number() }),
    ),
  }),
  async (tx, args) => {
    const total = await tx.store.standin.getTotal(args.accountId, args.featureCode, args.cycle);
    const records = await tx.store.standin.listRecords(args.accountId, args.featureCode, args.cycle, args.limit);
    return {
      total: total?.total ?? 0,
      records: records.map(({ id, kind, value, totalAfter, source, recordedAtMs }) => ({ id, kind, value, totalAfter, source, recordedAtMs })),
    };
  },
);

// ---------------------------------------------------------------- fault switches

const faultOut = z.object({
  kind: z.enum(FAULT_KINDS),
  remaining: z.number().nullable(),
  amount: z.number().nullable(),
  scope: z.string().nullable(),
  setAtMs: z.number(),
});

export const setFaultArgs = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("fail_writes"), count: z.number().int().min(1).max(1_000_000) }),
  z.strictObject({
    kind: z.literal("rate_limit"),
    count: z.number().int().min(1).max(1_000_000),
    resetSeconds: z.number().int().min(0).max(86_400).default(30),
  }),
  z.strictObject({
    kind: z.literal("drift"),
    amount: z.number().int().min(-1_000_000_000).max(1_000_000_000).refine((n) => n !== 0, "a drift other than 0"),
    count: z.number().int().min(1).max(1_000_000).default(1),
  }),
  z.strictObject({ kind: z.literal("hang"), count: z.number().int().min(1).max(1_000_000).nullable().default(null) }),
  z.strictObject({ kind: z.literal("deny_scope"), scope: z.enum(Object.values(SCOPE_OF) as [string, ...string[]]) }),
]);

/**
 * Turns a switch on (replacing the same kind's switch):
 *  - fail_writes: the next `count` meter writes fail;
 *  - rate_limit: the next `count` calls answer 429 with a reset of `resetSeconds`;
 *  - drift: the next `count` meter writes land `amount` off;
 *  - hang: the next `count` calls (null: every call until cleared) get no answer, so they time out;
 *  - deny_scope: calls needing `scope` are refused until cleared.
 */
export const setFault = mutation("standin.setFault", setFaultArgs, faultOut, async (tx, args) => {
  const fault: StandinFault = {
    kind: args.kind,
    remaining: args.kind === "deny_scope" ? null : args.count,
    amount: args.kind === "rate_limit" ? args.resetSeconds : args.kind === "drift" ? args.amount : null,
    scope: args.kind === "deny_scope" ? args.scope : null,
    setAtMs: tx.nowMs,
  };
  await tx.store.standin.putFault(fault);
  return fault;
});

export const clearFault = mutation(
  "standin.clearFault",
  z.strictObject({ kind: z.enum(FAULT_KINDS).or(z.literal("all")) }),
  z.object({ cleared: z.array(z.enum(FAULT_KINDS)) }),
  async (tx, args) => {
    const on = await tx.store.standin.listFaults();
    const cleared = on.filter((f) => args.kind === "all" || f.kind === args.kind).map((f) => f.kind);
    for (const kind of cleared) await tx.store.standin.deleteFault(kind);
    return { cleared };
  },
);

export const faults = query("standin.faults", z.strictObject({}), z.object({ faults: z.array(faultOut) }), async (tx) => ({
  faults: await tx.store.standin.listFaults(),
}));

// ---------------------------------------------------------------- signing key

const keyOut = z.object({ kid: z.string(), publicJwk: z.string(), privateJwk: z.string(), createdAtMs: z.number() });

/** The newest signing key with its private half (server-side only: the send-webhook orchestration). */
export const signingKey = query("standin.signingKey", z.strictObject({}), keyOut.nullable(), async (tx) => {
  const [key] = await tx.store.standin.listKeys(1);
  return key ?? null;
});

/**
 * Keeps the first key installed: key generation happens outside the
 * transaction (it is not deterministic), and two servers racing to install
 * one end up sharing whichever committed first.
 */
export const installSigningKey = mutation(
  "standin.installSigningKey",
  z.strictObject({ kid: z.string().min(1).max(100), publicJwk: z.string().max(10_000), privateJwk: z.string().max(20_000) }),
  keyOut,
  async (tx, args) => {
    const [existing] = await tx.store.standin.listKeys(1);
    if (existing) return existing;
    const key = { ...args, createdAtMs: tx.nowMs };
    await tx.store.standin.insertKey(key);
    return key;
  },
);

/** The public halves, as the key set (JWKS) publishes them. */
export const publicKeys = query("standin.publicKeys", z.strictObject({}), z.object({ keys: z.array(z.string()) }), async (tx) => ({
  keys: (await tx.store.standin.listKeys(10)).map((k) => k.publicJwk),
}));
