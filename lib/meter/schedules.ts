/**
 * The meter's recurring jobs (listed in lib/scheduler/schedules.ts):
 *  - meter-reporter, every minute: send the totals of marked cycles.
 *  - meter-reconcile-requests, every minute: reconcile the accounts queued by
 *    meter.requestReconcile (the inbox queues one on customer.meter_usage_updated).
 *  - meter-reconciler-nightly, checked every 15 minutes, runs once a day after
 *    03:00 UTC (a restart cannot skip it).
 */
import type { Schedule } from "../scheduler/schedules";
import { nightlyDue } from "./decide";
import { runReconcilerOrThrow, runReconcileRequests } from "./reconciler";
import { runReporter } from "./reporter";
import * as meter from "./scripts";

export const meterSchedules: Schedule[] = [
  {
    name: "meter-reporter",
    intervalMs: 60_000,
    async run(ctx) {
      await runReporter(ctx);
    },
  },
  {
    name: "meter-reconcile-requests",
    intervalMs: 60_000,
    async run(ctx) {
      await runReconcileRequests(ctx);
    },
  },
  {
    name: "meter-reconciler-nightly",
    intervalMs: 15 * 60_000,
    async run(ctx) {
      const last = await ctx.run(meter.lastRun, { trigger: "nightly" });
      if (nightlyDue(last?.startedAtMs ?? null, ctx.nowMs())) await runReconcilerOrThrow(ctx, { trigger: "nightly" });
    },
  },
];
