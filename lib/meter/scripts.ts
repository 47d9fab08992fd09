/**
 * The meter's transaction scripts (Part B). The reporter and the reconciler
 * (lib/meter/reporter.ts, reconciler.ts) call the provider between these;
 * each script is one transaction and never does I/O.
 */
import { z } from "zod";
import { actorSchema, recordAudit } from "../audit/scripts";
import { AppError, invariant } from "../errors";
import type { Account } from "../accounts/repo";
import { mutation, query } from "../scripts/define";
import type { Tx } from "../store/port";
import { anchorProblem, cycleNamed, isClosed } from "../usage/cycle";
import { counterTotal, markCycle } from "../usage/record";
import { cycleName, featureCode } from "../usage/scripts";
import { standingOf } from "./decide";
import type { MeterCycle, MeterEvidence, MeterReview } from "./repo";

/** The latest time a JavaScript Date can hold. */
export const AGREEMENT_START_MS_MAX = 8_640_000_000_000_000;
/** Most marked cycles one reporter run takes. */
export const REPORT_TAKE_MAX = 100;
/** How long a taken mark belongs to the reporter run that took it; a crashed run's marks come back after this. */
export const REPORT_LEASE_MS = 5 * 60_000;
/** Ledger rows per page when the reconciler adds a cycle up. */
export const LEDGER_PAGE_ROWS = 4000;

const accountId = z.string().regex(/^acct_[0-9a-z]{20}$/, "an account id (acct_ followed by 20 characters)");
const units = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
const nullableUnits = units.nullable();
const attemptResult = z.enum(["ok", "failed", "rate_limited"]);
const verdict = z.enum(["unreadable", "match", "closed_cycle_drift", "over_billed", "under_billed"]);
const outcome = z.enum(["none", "repaired_confirmed", "repair_unconfirmed", "review"]);
const detail = z.string().max(1000).nullable();
const cycleKey = { accountId, feature: featureCode, cycle: cycleName };

export const meterCycleSchema = z.object({
  accountId: z.string(),
  feature: z.string(),
  cycle: z.string(),
  firstUsageAtMs: z.number(),
  sentUnits: z.number().nullable(),
  sentAtMs: z.number().nullable(),
  lastAttemptUnits: z.number().nullable(),
  lastAttemptAtMs: z.number().nullable(),
  lastAttemptResult: attemptResult.nullable(),
  leaseUntilMs: z.number(),
});

export const reviewSchema = z.object({
  accountId: z.string(),
  feature: z.string(),
  cycle: z.string(),
  status: z.enum(["open", "resolved"]),
  ledgerUnits: z.number(),
  providerUnits: z.number().nullable(),
  reason: z.string(),
  firstAtMs: z.number(),
  lastAtMs: z.number(),
  resolvedAtMs: z.number().nullable(),
  resolution: z.string().nullable(),
});

export const evidenceSchema = z.object({
  id: z.string(),
  runId: z.string(),
  accountId: z.string(),
  feature: z.string(),
  cycle: z.string(),
  atMs: z.number(),
  closed: z.boolean(),
  ledgerUnits: z.number(),
  counterUnits: z.number(),
  countersRebuilt: z.boolean(),
  sentUnits: z.number().nullable(),
  lastReportFailed: z.boolean(),
  providerUnits: z.number().nullable(),
  verdict,
  cause: z.string(),
  repairUnits: z.number().nullable(),
  readBackUnits: z.number().nullable(),
  outcome,
  standing: z.string(),
});

export const reportSchema = z.object({
  accountId: z.string(),
  feature: z.string(),
  cycle: z.string(),
  totalUnits: z.number(),
  atMs: z.number(),
  result: attemptResult,
  detail: z.string().nullable(),
  sentBy: z.enum(["reporter", "reconciler"]),
});

export const runSchema = z.object({
  id: z.string(),
  trigger: z.enum(["nightly", "on_demand", "requested"]),
  accountId: z.string().nullable(),
  startedAtMs: z.number(),
  finishedAtMs: z.number().nullable(),
  accounts: z.number(),
  cycles: z.number(),
  evidenceRows: z.number(),
  repairs: z.number(),
  countersRebuilt: z.number(),
  error: z.string().nullable(),
});

const providerAccountSchema = z.object({ accountId: z.string(), customerId: z.string().nullable(), agreementId: z.string().nullable() });

async function requireAccount(tx: Tx, id: string): Promise<Account> {
  const account = await tx.store.accounts.get(id);
  if (!account) throw new AppError("not_found", `No account ${id}.`);
  return account;
}

/** Puts a closed cycle on the review list (or refreshes its row), open again if it had been resolved. */
async function putOnReview(tx: Tx, key: { accountId: string; feature: string; cycle: string }, ledgerUnits: number, providerUnits: number | null, reason: string) {
  const existing = await tx.store.meter.getReview(key.accountId, key.feature, key.cycle);
  const review: MeterReview = {
    accountId: key.accountId,
    feature: key.feature,
    cycle: key.cycle,
    status: "open",
    ledgerUnits,
    providerUnits: providerUnits ?? existing?.providerUnits ?? null,
    reason,
    firstAtMs: existing?.firstAtMs ?? tx.nowMs,
    lastAtMs: tx.nowMs,
    resolvedAtMs: null,
    resolution: null,
  };
  await tx.store.meter.putReview(review);
}

// ---------------------------------------------------------------- accounts

/**
 * Connects an account to its provider customer and agreement and sets its
 * cycle anchor (the agreement start). The anchor must fall on the 1st to the
 * 28th, and it is refused once the account has usage: changing it then would
 * move old usage into other cycles.
 */
export const connectAccount = mutation(
  "meter.connectAccount",
  z.strictObject({
    accountId,
    kindeCustomerId: z.string().min(1).max(100).regex(/^[A-Za-z0-9_\-]+$/, "letters, digits, '_' or '-'").nullable().optional(),
    agreementId: z.string().min(1).max(100).regex(/^[A-Za-z0-9_\-]+$/, "letters, digits, '_' or '-'").nullable().optional(),
    agreementStartMs: z.number().int().min(0).max(AGREEMENT_START_MS_MAX, "a time no later than the year 275760").nullable().optional(),
    /** Who connects it: the audit row commits with the change. */
    actor: actorSchema.optional(),
  }),
  z.object({ accountId: z.string(), kindeCustomerId: z.string().nullable(), agreementId: z.string().nullable(), cycleAnchorMs: z.number().nullable() }),
  async (tx, args) => {
    const account = await requireAccount(tx, args.accountId);
    if (args.agreementStartMs !== undefined && args.agreementStartMs !== account.cycleAnchorMs) {
      if (args.agreementStartMs !== null) {
        const problem = anchorProblem(args.agreementStartMs);
        if (problem) throw new AppError("invalid_input", `agreementStartMs: ${problem}`);
      }
      if (await tx.store.usage.hasAnyEntry(account.id)) {
        throw new AppError(
          "conflict",
          "This account already has usage, so its cycle anchor can no longer change: a new anchor would move usage already recorded into other cycles.",
        );
      }
    }
    if (args.kindeCustomerId) {
      const holder = await tx.store.accounts.getByKindeCustomerId(args.kindeCustomerId);
      if (holder && holder.id !== account.id) throw new AppError("conflict", `kindeCustomerId ${args.kindeCustomerId} already belongs to another account`);
    }
    const next = {
      kindeCustomerId: args.kindeCustomerId === undefined ? account.kindeCustomerId : args.kindeCustomerId,
      agreementId: args.agreementId === undefined ? account.agreementId : args.agreementId,
      cycleAnchorMs: args.agreementStartMs === undefined ? account.cycleAnchorMs : args.agreementStartMs,
    };
    // The accounts repo skips undefined fields only, so null clears a field as it should.
    await tx.store.accounts.patch(account.id, next);
    if (args.actor) {
      const before = { kindeCustomerId: account.kindeCustomerId, agreementId: account.agreementId, cycleAnchorMs: account.cycleAnchorMs };
      await recordAudit(tx, args.actor, "accounts.connect", account.id, account.id, { before, after: next });
    }
    return { accountId: account.id, ...next };
  },
);

// ---------------------------------------------------------------- reporter

const takenSchema = z.object({
  accountId: z.string(),
  feature: z.string(),
  cycle: z.string(),
  totalUnits: z.number(),
  cycleEndMs: z.number(),
  providerAccount: providerAccountSchema,
});

/**
 * The reporter's first step: takes up to `limit` marked cycles whose due time
 * has come, deletes their marks and reads each total from its counters, all
 * in one transaction, so a usage row committed after this marks its cycle
 * again and the next run carries it. A closed cycle is not handed out: it
 * goes to the review list. Each cycle handed out is leased to this run; if
 * the run dies before recordReports, the lease runs out and the cycle is
 * marked again.
 */
export const takeMarks = mutation(
  "meter.takeMarks",
  z.strictObject({ limit: z.number().int().min(1).max(REPORT_TAKE_MAX).default(REPORT_TAKE_MAX) }),
  z.object({ taken: z.array(takenSchema), closed: z.number(), leasesExpired: z.number() }),
  async (tx, args) => {
    const expired = await tx.store.meter.listExpiredLeases(tx.nowMs, REPORT_TAKE_MAX);
    for (const c of expired) {
      await markCycle(tx, c.accountId, c.feature, c.cycle, tx.nowMs);
      await tx.store.meter.patchCycle(c.accountId, c.feature, c.cycle, { leaseUntilMs: 0 });
    }
    const marks = await tx.store.usage.listDueMarks(tx.nowMs, args.limit);
    const accounts = new Map<string, Account>();
    const taken: z.output<typeof takenSchema>[] = [];
    let closed = 0;
    for (const mark of marks) {
      await tx.store.usage.deleteMark(mark.accountId, mark.feature, mark.cycle);
      let account = accounts.get(mark.accountId);
      if (!account) {
        const found = await tx.store.accounts.get(mark.accountId);
        invariant(found, `a usage mark of a missing account ${mark.accountId}`);
        accounts.set(found.id, (account = found));
      }
      const totalUnits = await counterTotal(tx, mark.accountId, mark.feature, mark.cycle);
      const cycle = cycleNamed(mark.cycle, account.cycleAnchorMs);
      if (isClosed(cycle, tx.nowMs)) {
        closed++;
        await putOnReview(
          tx,
          mark,
          totalUnits,
          null,
          `The cycle closed before its total (${totalUnits}) was reported; the reporter does not write a closed cycle, because what such a write does to an invoice cannot be confirmed.`,
        );
        continue;
      }
      await tx.store.meter.patchCycle(mark.accountId, mark.feature, mark.cycle, { leaseUntilMs: tx.nowMs + REPORT_LEASE_MS });
      taken.push({
        accountId: mark.accountId,
        feature: mark.feature,
        cycle: mark.cycle,
        totalUnits,
        cycleEndMs: cycle.endMs,
        providerAccount: { accountId: account.id, customerId: account.kindeCustomerId, agreementId: account.agreementId },
      });
    }
    return { taken, closed, leasesExpired: expired.length };
  },
);

const reportResultSchema = z.strictObject({
  ...cycleKey,
  totalUnits: units,
  /** closed: the cycle closed between take and write; skipped: not attempted (an earlier write was throttled). */
  outcome: z.enum(["ok", "failed", "rate_limited", "skipped", "closed"]),
  atMs: z.number().int().min(0),
  detail,
  /** When the cycle comes back to the reporter (a re-mark); null: not marked again by this. */
  remarkAtMs: z.number().int().min(0).nullable(),
});

/**
 * The reporter's last step, after the loop: one sent-log row per write
 * (total, time, result), the cycles' last-sent state, the re-marks of failed
 * and throttled writes, and the end of each lease.
 */
export const recordReports = mutation(
  "meter.recordReports",
  z.strictObject({ results: z.array(reportResultSchema).max(REPORT_TAKE_MAX) }),
  z.object({ logged: z.number(), remarked: z.number() }),
  async (tx, args) => {
    let logged = 0;
    let remarked = 0;
    for (const r of args.results) {
      const state = await tx.store.meter.getCycle(r.accountId, r.feature, r.cycle);
      invariant(state, `a report of a cycle with no meter row ${r.accountId}/${r.feature}/${r.cycle}`);
      if (r.outcome === "ok" || r.outcome === "failed" || r.outcome === "rate_limited") {
        await tx.store.meter.insertReport({ ...cycleOf(r), totalUnits: r.totalUnits, atMs: r.atMs, result: r.outcome, detail: r.detail, sentBy: "reporter" });
        logged++;
      }
      await tx.store.meter.patchCycle(r.accountId, r.feature, r.cycle, { ...attemptPatch(r), leaseUntilMs: 0 });
      if (r.outcome === "closed") {
        await putOnReview(tx, r, r.totalUnits, null, `The cycle closed before its total (${r.totalUnits}) was written; the reporter does not write a closed cycle.`);
      }
      if (r.remarkAtMs !== null) {
        await markCycle(tx, r.accountId, r.feature, r.cycle, r.remarkAtMs);
        remarked++;
      }
    }
    return { logged, remarked };
  },
);

const cycleOf = (r: { accountId: string; feature: string; cycle: string }) => ({ accountId: r.accountId, feature: r.feature, cycle: r.cycle });

function attemptPatch(r: { totalUnits: number; atMs: number; outcome: string }): Partial<MeterCycle> {
  if (r.outcome === "ok") return { sentUnits: r.totalUnits, sentAtMs: r.atMs, lastAttemptUnits: r.totalUnits, lastAttemptAtMs: r.atMs, lastAttemptResult: "ok" };
  if (r.outcome === "failed" || r.outcome === "rate_limited") {
    return { lastAttemptUnits: r.totalUnits, lastAttemptAtMs: r.atMs, lastAttemptResult: r.outcome };
  }
  return {};
}

// ---------------------------------------------------------------- reconciler

/** One page of an account's cycles, in (feature, cycle) order, for the reconciler. */
export const cyclesOf = query(
  "meter.cyclesOf",
  z.strictObject({ accountId, limit: z.number().int().min(1).max(200).default(100), after: z.strictObject({ feature: z.string(), cycle: z.string() }).optional() }),
  z.object({ cycles: z.array(meterCycleSchema) }),
  async (tx, args) => ({ cycles: await tx.store.meter.listCycles(args.accountId, args.limit, args.after) }),
);

/** One page of a cycle's ledger, added up. The reconciler streams a cycle through this, page by page. */
export const sumLedgerPage = query(
  "meter.sumLedgerPage",
  z.strictObject({ ...cycleKey, after: z.string().max(40).nullable(), limit: z.number().int().min(1).max(5000).default(LEDGER_PAGE_ROWS) }),
  z.object({ units: z.number(), rows: z.number(), cursor: z.string().nullable(), done: z.boolean() }),
  async (tx, args) => {
    const page = await tx.store.usage.pageUnits(args.accountId, args.feature, args.cycle, args.after, args.limit);
    let sum = 0;
    for (const u of page.units) sum += u;
    return { units: sum, rows: page.units.length, cursor: page.cursor, done: page.units.length < args.limit };
  },
);

/** Rows written after the reconciler's pages that one check transaction will add up; more means "busy, check next run". */
export const CHECK_TAIL_ROWS_MAX = 5000;

/**
 * Checks the sharded counter against the ledger sum the reconciler paged
 * (`ledgerUnits` up to `after`) plus the rows written since (read here, in
 * the same transaction as the counter). A counter that differs is rebuilt
 * (set to the ledger's total) only when `rebuildIfDifference` equals the
 * difference found now: the orchestration passes the difference its first
 * pass saw, so only a difference two full passes agree on is rebuilt.
 */
export const checkCounters = mutation(
  "meter.checkCounters",
  z.strictObject({ ...cycleKey, ledgerUnits: units, after: z.string().max(40).nullable(), rebuildIfDifference: nullableUnits }),
  z.union([
    z.object({ status: z.literal("busy") }),
    z.object({ status: z.enum(["equal", "differs", "rebuilt"]), ledgerUnits: z.number(), counterUnits: z.number() }),
  ]),
  async (tx, args) => {
    const tail = await tx.store.usage.pageUnits(args.accountId, args.feature, args.cycle, args.after, CHECK_TAIL_ROWS_MAX);
    if (tail.units.length >= CHECK_TAIL_ROWS_MAX) return { status: "busy" as const };
    const ledgerUnits = args.ledgerUnits + tail.units.reduce((sum, u) => sum + u, 0);
    const counterUnits = await counterTotal(tx, args.accountId, args.feature, args.cycle);
    if (counterUnits === ledgerUnits) return { status: "equal" as const, ledgerUnits, counterUnits };
    if (args.rebuildIfDifference !== counterUnits - ledgerUnits) return { status: "differs" as const, ledgerUnits, counterUnits };
    // Rebuild: one shard takes the difference, so the shards add up to the ledger again.
    await tx.store.usage.addToShard(args.accountId, args.feature, args.cycle, 0, ledgerUnits - counterUnits);
    return { status: "rebuilt" as const, ledgerUnits, counterUnits };
  },
);

export const runStart = mutation(
  "meter.runStart",
  z.strictObject({ trigger: z.enum(["nightly", "on_demand", "requested"]), accountId: accountId.nullable() }),
  runSchema,
  async (tx, args) => {
    const run = {
      id: tx.newId("run"),
      trigger: args.trigger,
      accountId: args.accountId,
      startedAtMs: tx.nowMs,
      finishedAtMs: null,
      accounts: 0,
      cycles: 0,
      evidenceRows: 0,
      repairs: 0,
      countersRebuilt: 0,
      error: null,
    };
    await tx.store.meter.insertRun(run);
    return run;
  },
);

export const runFinish = mutation(
  "meter.runFinish",
  z.strictObject({
    runId: z.string().regex(/^run_[0-9a-z]{20}$/),
    accounts: z.number().int().min(0),
    cycles: z.number().int().min(0),
    evidenceRows: z.number().int().min(0),
    repairs: z.number().int().min(0),
    countersRebuilt: z.number().int().min(0),
    error: z.string().max(4000).nullable(),
  }),
  z.null(),
  async (tx, { runId, ...counts }) => {
    invariant(await tx.store.meter.getRun(runId), `finish of a missing run ${runId}`);
    await tx.store.meter.patchRun(runId, { ...counts, finishedAtMs: tx.nowMs });
    return null;
  },
);

/** What the reconciler needs of a cycle besides its ledger: the last total sent and whether the last report failed. */
export const cycleState = query(
  "meter.cycleState",
  z.strictObject(cycleKey),
  meterCycleSchema.nullable(),
  async (tx, args) => tx.store.meter.getCycle(args.accountId, args.feature, args.cycle),
);

/**
 * Stores what one reconciler pass found for one cycle, in one transaction:
 * the repair's sent-log row (when it wrote), the cycle's review row (closed
 * drift), and the evidence row, unless the cycle's standing equals its last
 * row's and no counter was rebuilt, in which case nothing new is added.
 */
export const recordEvidence = mutation(
  "meter.recordEvidence",
  z.strictObject({
    runId: z.string().regex(/^run_[0-9a-z]{20}$/),
    ...cycleKey,
    closed: z.boolean(),
    ledgerUnits: units,
    counterUnits: units,
    countersRebuilt: z.boolean(),
    sentUnits: nullableUnits,
    lastReportFailed: z.boolean(),
    providerUnits: nullableUnits,
    verdict,
    cause: z.string().min(1).max(2000),
    repairUnits: nullableUnits,
    readBackUnits: nullableUnits,
    outcome,
    /** The repair's meter write, when one was attempted. */
    repairWrite: z.strictObject({ totalUnits: units, atMs: z.number().int().min(0), result: attemptResult, detail }).nullable(),
  }),
  z.object({ added: z.boolean(), evidence: evidenceSchema }),
  async (tx, { repairWrite, ...e }) => {
    const key = cycleOf(e);
    let sentAfter = e.sentUnits;
    if (repairWrite) {
      await tx.store.meter.insertReport({ ...key, ...repairWrite, sentBy: "reconciler" });
      await tx.store.meter.patchCycle(e.accountId, e.feature, e.cycle, attemptPatch({ ...repairWrite, outcome: repairWrite.result }));
      if (repairWrite.result === "ok") sentAfter = repairWrite.totalUnits;
    }
    if (e.outcome === "review") await putOnReview(tx, key, e.ledgerUnits, e.providerUnits, e.cause);
    // After a repair the meter stands at what was read back; a repair whose read-back failed leaves it unknown.
    const providerAfter = e.repairUnits !== null ? e.readBackUnits : e.providerUnits;
    const standing = standingOf({ ledgerUnits: e.ledgerUnits, sentUnits: sentAfter, providerUnits: providerAfter, closed: e.closed });
    const [last] = await tx.store.meter.listEvidence(e.accountId, e.feature, e.cycle, 1);
    const row: MeterEvidence = { id: tx.newId("evd"), ...e, atMs: tx.nowMs, standing };
    if (last && last.standing === standing && !e.countersRebuilt) return { added: false, evidence: last };
    await tx.store.meter.insertEvidence(row);
    return { added: true, evidence: row };
  },
);

// ---------------------------------------------------------------- reconcile requests

/**
 * Queues a reconcile of one account inside the caller's transaction; the
 * meter-reconcile-requests schedule runs it within a minute. The inbox calls
 * this when it applies customer.meter_usage_updated (one transaction with the
 * event's status). One request per account: asking again while one waits
 * keeps the first time (so it is not pushed back) and takes the newest reason.
 */
export async function queueReconcile(tx: Tx, accountId: string, reason: string): Promise<{ accountId: string; requestedAtMs: number; reason: string }> {
  const existing = await tx.store.meter.getRequest(accountId);
  const request = { accountId, requestedAtMs: existing?.requestedAtMs ?? tx.nowMs, reason: reason.slice(0, 500) };
  await tx.store.meter.putRequest(request);
  return request;
}

/** The same as a script, for callers outside a transaction (operators, tools). */
export const requestReconcile = mutation(
  "meter.requestReconcile",
  z.strictObject({ accountId, reason: z.string().min(1).max(500) }),
  z.object({ accountId: z.string(), requestedAtMs: z.number(), reason: z.string() }),
  async (tx, args) => {
    await requireAccount(tx, args.accountId);
    return queueReconcile(tx, args.accountId, args.reason);
  },
);

/** Takes (and deletes) the oldest queued reconcile requests. */
export const takeReconcileRequests = mutation(
  "meter.takeReconcileRequests",
  z.strictObject({ limit: z.number().int().min(1).max(100).default(20) }),
  z.object({ requests: z.array(z.object({ accountId: z.string(), requestedAtMs: z.number(), reason: z.string() })) }),
  async (tx, args) => {
    const requests = await tx.store.meter.listRequests(args.limit);
    for (const r of requests) await tx.store.meter.deleteRequest(r.accountId);
    return { requests };
  },
);

// ---------------------------------------------------------------- review list and pages

export const listReviews = query(
  "meter.listReviews",
  z.strictObject({ status: z.enum(["open", "resolved"]).default("open"), limit: z.number().int().min(1).max(200).default(100) }),
  z.object({ reviews: z.array(reviewSchema) }),
  async (tx, args) => ({ reviews: await tx.store.meter.listReviews(args.status, args.limit) }),
);

/** An operator closes a review row with what was done about it (a row that comes back later opens again). */
export const resolveReview = mutation(
  "meter.resolveReview",
  z.strictObject({ ...cycleKey, resolution: z.string().trim().min(1, "say what was done").max(500), actor: actorSchema.optional() }),
  reviewSchema,
  async (tx, args) => {
    const review = await tx.store.meter.getReview(args.accountId, args.feature, args.cycle);
    if (!review) throw new AppError("not_found", `No review of ${args.accountId} ${args.feature} ${args.cycle}.`);
    const resolved: MeterReview = { ...review, status: "resolved", resolvedAtMs: tx.nowMs, resolution: args.resolution };
    await tx.store.meter.putReview(resolved);
    if (args.actor) await recordAudit(tx, args.actor, "meter.resolve_review", `${args.feature}:${args.cycle}`, args.accountId, { resolution: args.resolution });
    return resolved;
  },
);

/** One cycle for the pages: the counter total, the meter state, the evidence history and the sent log. */
export const cycleDetail = query(
  "meter.cycleDetail",
  z.strictObject({ ...cycleKey, limit: z.number().int().min(1).max(200).default(50) }),
  z.object({
    counterUnits: z.number(),
    marked: z.boolean(),
    state: meterCycleSchema.nullable(),
    evidence: z.array(evidenceSchema),
    reports: z.array(reportSchema),
    review: reviewSchema.nullable(),
  }),
  async (tx, args) => ({
    counterUnits: await counterTotal(tx, args.accountId, args.feature, args.cycle),
    marked: (await tx.store.usage.getMark(args.accountId, args.feature, args.cycle)) !== null,
    state: await tx.store.meter.getCycle(args.accountId, args.feature, args.cycle),
    evidence: await tx.store.meter.listEvidence(args.accountId, args.feature, args.cycle, args.limit),
    reports: await tx.store.meter.listReports(args.accountId, args.feature, args.cycle, args.limit),
    review: await tx.store.meter.getReview(args.accountId, args.feature, args.cycle),
  }),
);

/** An account's cycles with their counter totals and latest evidence, for the Reconciliation panel and the account page. */
export const accountOverview = query(
  "meter.accountOverview",
  z.strictObject({ accountId, limit: z.number().int().min(1).max(50).default(24) }),
  z.object({
    cycles: z.array(
      z.object({
        state: meterCycleSchema,
        counterUnits: z.number(),
        closed: z.boolean(),
        latest: evidenceSchema.nullable(),
      }),
    ),
  }),
  async (tx, args) => {
    const account = await requireAccount(tx, args.accountId);
    const states = await tx.store.meter.listRecentCycles(account.id, args.limit);
    const cycles = [];
    for (const state of states) {
      const [latest] = await tx.store.meter.listEvidence(state.accountId, state.feature, state.cycle, 1);
      cycles.push({
        state,
        counterUnits: await counterTotal(tx, state.accountId, state.feature, state.cycle),
        closed: isClosed(cycleNamed(state.cycle, account.cycleAnchorMs), tx.nowMs),
        latest: latest ?? null,
      });
    }
    return { cycles };
  },
);

export const listRuns = query(
  "meter.listRuns",
  z.strictObject({ limit: z.number().int().min(1).max(100).default(20) }),
  z.object({ runs: z.array(runSchema) }),
  async (tx, args) => ({ runs: await tx.store.meter.listRuns(args.limit) }),
);

export const lastRun = query(
  "meter.lastRun",
  z.strictObject({ trigger: z.enum(["nightly", "on_demand", "requested"]) }),
  runSchema.nullable(),
  async (tx, args) => tx.store.meter.lastRun(args.trigger),
);

export const getRun = query(
  "meter.getRun",
  z.strictObject({ runId: z.string().regex(/^run_[0-9a-z]{20}$/) }),
  z.object({ run: runSchema.nullable(), evidence: z.array(evidenceSchema) }),
  async (tx, args) => ({ run: await tx.store.meter.getRun(args.runId), evidence: await tx.store.meter.listEvidenceOfRun(args.runId, 500) }),
);
