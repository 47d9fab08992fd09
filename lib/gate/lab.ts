/**
 * The Concurrency Lab (Part A's first experiment): the same N jobs run twice,
 * each time on a fresh account with the same limit, all N started together.
 *
 *  - Plain check: each job reads what its account has used (the usage ledger)
 *    and compares it with the limit; if the estimate fits it runs, and its
 *    usage is recorded when it ends. Every check sees the same number, so
 *    every job runs.
 *  - Hold: each job reserves its estimate through the real gate (reserveJob:
 *    check and hold in one transaction), charges its steps against the hold
 *    and settles. Only what fits is admitted; the rest is refused with what is left.
 *
 * Nothing is simulated but the work itself: both variants go through the
 * engine, the provider's limit and the ledger the API uses.
 */
import { z } from "zod";
import * as accounts from "../accounts/scripts";
import type { Engine } from "../engine/types";
import * as standin from "../standin/scripts";
import * as usage from "../usage/scripts";
import { chargeJob, refreshLimit, reserveJob, settleJob, type GateContext } from "./orchestrate";
import * as gate from "./scripts";

export const labInput = z.strictObject({
  jobs: z.coerce.number().int().min(1, "1 to 50 jobs").max(50, "1 to 50 jobs"),
  estimate: z.coerce.number().int().min(1, "an estimate of 1 to 1,000,000,000").max(1_000_000_000, "an estimate of 1 to 1,000,000,000"),
  limit: z.coerce.number().int().min(0, "a limit of 0 to 1,000,000,000,000").max(1_000_000_000_000, "a limit of 0 to 1,000,000,000,000"),
});
export type LabInput = z.output<typeof labInput>;

export const LAB_DEFAULTS: LabInput = { jobs: 5, estimate: 40_000, limit: 100_000 };
/** Each job's work: its estimate in this many steps. */
const STEPS = 4;

export interface LabJob {
  index: number;
  started: boolean;
  /** Why it was refused, or how it ended. */
  reason: string;
  spentUnits: number;
  /** Milliseconds after the run began: the check or reserve, then each step, then the end. */
  timeline: { atMs: number; what: string }[];
  jobId: string | null;
}

export interface LabVariant {
  kind: "check" | "hold";
  accountId: string;
  accountName: string;
  started: number;
  refused: number;
  spentUnits: number;
  limitUnits: number;
  jobs: LabJob[];
}

export interface LabResult {
  input: LabInput;
  check: LabVariant;
  hold: LabVariant;
  ranAtMs: number;
}

function steps(total: number): number[] {
  const base = Math.floor(total / STEPS);
  return Array.from({ length: STEPS }, (_, i) => (i === STEPS - 1 ? total - base * (STEPS - 1) : base));
}

async function freshAccount(engine: Engine, name: string, limitUnits: number): Promise<string> {
  const account = await engine.run(accounts.create, { name });
  await engine.run(standin.setLimit, { accountId: account.id, featureCode: "tokens", limitMax: limitUnits });
  return account.id;
}

async function runCheck(ctx: GateContext, engine: Engine, input: LabInput, name: string): Promise<LabVariant> {
  const accountId = await freshAccount(engine, name, input.limit);
  // The check reads the same limit the gate would: through the gate's limit cache, from the provider.
  await refreshLimit(ctx, accountId, "tokens");
  const { budget } = await engine.run(gate.budget, { accountId, feature: "tokens" });
  const limitUnits = budget.limitUnits ?? Number.MAX_SAFE_INTEGER;
  const t0 = performance.now();
  const at = () => Math.round(performance.now() - t0);
  const jobs = await Promise.all(
    Array.from({ length: input.jobs }, async (_, index): Promise<LabJob> => {
      const timeline: LabJob["timeline"] = [];
      const { units: usedUnits } = await engine.run(usage.total, { accountId, feature: "tokens", cycle: budget.cycle });
      const left = Math.max(0, limitUnits - usedUnits);
      timeline.push({ atMs: at(), what: `check: ${usedUnits} used, ${left} left` });
      if (input.estimate > left) return { index, started: false, reason: `The check saw ${left} left; the job needs ${input.estimate}.`, spentUnits: 0, timeline, jobId: null };
      let spent = 0;
      for (const step of steps(input.estimate)) {
        await new Promise((resolve) => setImmediate(resolve)); // the work between steps
        spent += step;
        timeline.push({ atMs: at(), what: `step: ${step}` });
      }
      // Usage is counted when the job ends: a row in the ledger, as a settled job would write.
      await engine.run(usage.record, { key: `lab:${accountId}:${index}`, accountId, feature: "tokens", cycle: budget.cycle, units: spent, source: "job", ref: null, reason: "Concurrency Lab, plain check" });
      timeline.push({ atMs: at(), what: `ended: ${spent} recorded` });
      return { index, started: true, reason: `The check saw ${left} left; ran and used ${spent}.`, spentUnits: spent, timeline, jobId: null };
    }),
  );
  const { units: spentUnits } = await engine.run(usage.total, { accountId, feature: "tokens", cycle: budget.cycle });
  return summarize("check", accountId, name, jobs, spentUnits, input.limit);
}

async function runHold(ctx: GateContext, engine: Engine, input: LabInput, name: string): Promise<LabVariant> {
  const accountId = await freshAccount(engine, name, input.limit);
  const t0 = performance.now();
  const at = () => Math.round(performance.now() - t0);
  const jobs = await Promise.all(
    Array.from({ length: input.jobs }, async (_, index): Promise<LabJob> => {
      const timeline: LabJob["timeline"] = [];
      const reserved = await reserveJob(ctx, { accountId, key: `lab-${index}`, estimate: input.estimate });
      if (reserved.outcome !== "admitted") {
        const reason = reserved.reason;
        timeline.push({ atMs: at(), what: `reserve: ${reserved.outcome === "refused" ? `refused, ${reserved.remainingUnits} left` : reserved.outcome}` });
        return { index, started: false, reason, spentUnits: 0, timeline, jobId: null };
      }
      const jobId = reserved.job.id;
      timeline.push({ atMs: at(), what: `reserve: held ${reserved.job.heldUnits}, ${reserved.remainingUnits ?? "no limit"} left` });
      let step = 0;
      for (const tokens of steps(input.estimate)) {
        await new Promise((resolve) => setImmediate(resolve));
        const charged = await chargeJob(ctx, { jobId, tokens, step: ++step, asAccountId: accountId });
        timeline.push({ atMs: at(), what: `charge: ${charged.outcome === "charged" || charged.outcome === "capped" ? charged.chargedUnits : 0}` });
        if (charged.outcome === "capped") break;
      }
      const settled = await settleJob(ctx, { jobId, outcome: "completed", asAccountId: accountId });
      const spent = settled.job.chargedUnits ?? 0;
      timeline.push({ atMs: at(), what: `settled: ${spent} charged, ${settled.job.releasedUnits ?? 0} returned` });
      return { index, started: true, reason: `Held ${reserved.job.heldUnits}; ran and was charged ${spent}.`, spentUnits: spent, timeline, jobId };
    }),
  );
  const { budget } = await engine.run(gate.budget, { accountId, feature: "tokens" });
  return summarize("hold", accountId, name, jobs, budget.usedUnits, input.limit);
}

function summarize(kind: LabVariant["kind"], accountId: string, accountName: string, jobs: LabJob[], spentUnits: number, limitUnits: number): LabVariant {
  return { kind, accountId, accountName, started: jobs.filter((j) => j.started).length, refused: jobs.filter((j) => !j.started).length, spentUnits, limitUnits, jobs };
}

/** Runs both variants, each on its own fresh account, at the same time. */
export async function runLab(ctx: GateContext, engine: Engine, input: LabInput): Promise<LabResult> {
  const stamp = new Date(ctx.nowMs()).toISOString().slice(0, 19).replace("T", " ");
  const [check, hold] = await Promise.all([
    runCheck(ctx, engine, input, `Lab ${stamp} · plain check`),
    runHold(ctx, engine, input, `Lab ${stamp} · hold`),
  ]);
  return { input, check, hold, ranAtMs: ctx.nowMs() };
}
