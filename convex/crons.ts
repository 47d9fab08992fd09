/**
 * Convex's copy of the schedule list: each job in lib/scheduler/schedules.ts
 * becomes an interval cron that runs convex/scheduled.ts:run with its name.
 */
import { cronJobs } from "convex/server";
import { schedules } from "../lib/scheduler/schedules";
import { internal } from "./_generated/api";

const crons = cronJobs();
for (const schedule of schedules) {
  crons.interval(schedule.name, { seconds: Math.max(1, Math.round(schedule.intervalMs / 1000)) }, internal.scheduled.run, { name: schedule.name });
}
export default crons;
