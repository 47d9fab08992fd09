/**
 * Every recurring job, declared once. convex/crons.ts registers each for
 * Convex; lib/scheduler/runner.ts runs them in-process on the embedded engine.
 * Each part adds its jobs here (the gate's sweeper, the meter's reporter and
 * reconciler, the inbox worker).
 */
import { sweepExpiredJobs } from "../gate/orchestrate";
import { sweepIntervalMs } from "../gate/settings";
import { meterSchedules } from "../meter/schedules";
import { INBOX_WORKER_SCHEDULE, runInboxWorker, WORKER_INTERVAL_MS } from "../inbox/worker";
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
  ...meterSchedules,
  // The inbox worker (Part C): also started after every intake answer; this catches retries whose wait is over and dead workers' leases.
  {
    name: INBOX_WORKER_SCHEDULE,
    intervalMs: WORKER_INTERVAL_MS,
    run: async (ctx) => {
      await runInboxWorker(ctx, { alertUrl: process.env.TOLLBOOTH_ALERT_WEBHOOK_URL || null });
    },
  },
];
