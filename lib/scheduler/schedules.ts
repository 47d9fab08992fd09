/**
 * Every recurring job, declared once. convex/crons.ts registers each for
 * Convex; lib/scheduler/runner.ts runs them in-process on the embedded engine.
 * Each part adds its jobs here (the gate's sweeper, the meter's reporter and
 * reconciler, the inbox worker).
 */
import { sweepExpiredJobs } from "../gate/orchestrate";
import { sweepIntervalMs } from "../gate/settings";
import type { OrchestrationContext } from "../orchestrations/context";

export interface Schedule {
  /** Unique, kebab-case; the Convex cron's name. */
  name: string;
  intervalMs: number;
  run(ctx: OrchestrationContext): Promise<void>;
}

export const schedules: readonly Schedule[] = [
  // Part A: running jobs whose lease ran out are settled as expired, in bounded batches.
  { name: "gate-sweep", intervalMs: sweepIntervalMs(), run: async (ctx) => void (await sweepExpiredJobs(ctx)) },
];
