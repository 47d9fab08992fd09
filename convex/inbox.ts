import * as scripts from "../lib/inbox/scripts";
import { INBOX_WORKER_SCHEDULE } from "../lib/inbox/worker";
import { internal } from "./_generated/api";
import type { MutationCtx } from "./_generated/server";
import { wrapMutation, wrapQuery } from "./engine/wrap";

/**
 * On Convex the worker is started by scheduling it from the mutation that
 * stored the event (or requeued it): the schedule commits with the row, so a
 * stored event always has a worker coming. TOLLBOOTH_INBOX_KICK=off leaves it
 * to the cron (the contract tests drive the worker themselves).
 */
async function kickWorker(ctx: MutationCtx): Promise<void> {
  if (process.env.TOLLBOOTH_INBOX_KICK === "off") return;
  await ctx.scheduler.runAfter(0, internal.scheduled.run, { name: INBOX_WORKER_SCHEDULE });
}

export const receive = wrapMutation(scripts.receive, { then: async (ctx, result) => (result.stored ? kickWorker(ctx) : undefined) });
export const claim = wrapMutation(scripts.claim);
export const apply = wrapMutation(scripts.apply);
export const fail = wrapMutation(scripts.fail);
export const replay = wrapMutation(scripts.replay, { then: kickWorker });
export const replayMany = wrapMutation(scripts.replayMany, { then: kickWorker });
export const get = wrapQuery(scripts.get);
export const list = wrapQuery(scripts.list);
export const listForAccount = wrapQuery(scripts.listForAccount);
export const counts = wrapQuery(scripts.counts);
export const deadCount = wrapQuery(scripts.deadCount);
export const statuses = wrapQuery(scripts.statuses);
export const accountState = wrapQuery(scripts.accountState);
