/**
 * The inbox worker: an orchestration (not a transaction) that claims stored
 * events, applies each in its own transaction, records failures, and tells an
 * operator about dead events. Started right after each intake answer (embedded:
 * Next's after(); Convex: scheduled by the receive mutation) and every 5 s by
 * the schedule. Two workers at once are fine: a claim never hands one event to two.
 */
import type { OrchestrationContext } from "../orchestrations/context";
import * as inbox from "./scripts";

export const INBOX_WORKER_SCHEDULE = "inbox-worker";
export const WORKER_INTERVAL_MS = 5_000;
/** Claims per pass (25 events each) before the pass ends and leaves the rest to the next. */
export const PASS_BATCHES_MAX = 80;
/** Claim loops side by side; on the embedded engine their applies share group commits. */
export const WORKER_LANES = 4;
const ALERT_TIMEOUT_MS = 5_000;

/** The worker never calls the provider: it needs scripts, the time and a log. */
export type WorkerContext = Pick<OrchestrationContext, "run" | "nowMs" | "log">;

export interface WorkerOptions {
  maxBatches?: number;
  lanes?: number;
  /** Where a dead event is posted (TOLLBOOTH_ALERT_WEBHOOK_URL); null: nowhere. */
  alertUrl?: string | null;
  fetch?: typeof fetch;
}

export interface WorkerPass {
  claimed: number;
  applied: number;
  ignored: number;
  failed: number;
  dead: number;
  /** Applies the drill stopped (the worker "died" in the middle; the lease runs out). */
  stopped: number;
  leaseLost: number;
}

type Died = Awaited<ReturnType<typeof inbox.fail.handler>>["died"] & {};

export async function runInboxWorker(ctx: WorkerContext, options: WorkerOptions = {}): Promise<WorkerPass> {
  const pass: WorkerPass = { claimed: 0, applied: 0, ignored: 0, failed: 0, dead: 0, stopped: 0, leaseLost: 0 };
  const maxBatches = options.maxBatches ?? PASS_BATCHES_MAX;
  let batches = 0;

  const alert = async (died: Died) => {
    pass.dead++;
    ctx.log(`inbox event ${died.id} (${died.type}) is dead after ${died.attempts} attempts: ${died.lastError}`);
    if (options.alertUrl) await postAlert(ctx, options.alertUrl, died, options.fetch ?? fetch);
  };

  const applyOne = async (claimed: { id: string; leaseToken: string; stopMidApply: boolean }) => {
    try {
      const result = await ctx.run(inbox.apply, { inboxEventId: claimed.id, leaseToken: claimed.leaseToken, interruptAfterFirstWrite: claimed.stopMidApply });
      if (result.outcome === "applied") pass.applied++;
      else if (result.outcome === "ignored") pass.ignored++;
      else pass.leaseLost++;
    } catch (error) {
      if (claimed.stopMidApply) {
        // The drill: this worker "died" in the middle. A dead worker records
        // nothing; the event keeps its lease until it runs out.
        pass.stopped++;
        ctx.log(`inbox event ${claimed.id}: the worker stopped in the middle (drill); its lease will run out`);
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      try {
        const failed = await ctx.run(inbox.fail, { inboxEventId: claimed.id, leaseToken: claimed.leaseToken, error: message.slice(0, 2000) });
        if (failed.status === "failed") pass.failed++;
        else if (failed.status === "lease_lost") pass.leaseLost++;
        if (failed.died) await alert(failed.died);
      } catch (recordError) {
        // Not even the failure could be written: the lease runs out and the event is claimed again.
        ctx.log(`inbox event ${claimed.id}: could not record a failure (${(recordError as Error).message})`);
      }
    }
  };

  const lane = async () => {
    while (batches < maxBatches) {
      batches++;
      const { claimed, died } = await ctx.run(inbox.claim, {});
      for (const d of died) await alert(d);
      if (claimed.length === 0 && died.length === 0) return;
      pass.claimed += claimed.length;
      await Promise.all(claimed.map(applyOne));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.lanes ?? WORKER_LANES) }, lane));
  return pass;
}

async function postAlert(ctx: WorkerContext, url: string, died: Died, fetchImpl: typeof fetch): Promise<void> {
  try {
    const response = await fetchImpl(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        alert: "inbox.event_dead",
        text: `Billing event ${died.id} (${died.type}) is dead after ${died.attempts} attempts: ${died.lastError}. It needs a person: replay it from the Inbox page once the cause is fixed.`,
        inboxEventId: died.id,
        type: died.type,
        attempts: died.attempts,
        lastError: died.lastError,
        accountId: died.accountId,
        atMs: ctx.nowMs(),
      }),
      signal: AbortSignal.timeout(ALERT_TIMEOUT_MS),
    });
    if (!response.ok) ctx.log(`the alert webhook answered ${response.status} for dead event ${died.id}`);
  } catch (error) {
    ctx.log(`the alert webhook could not be reached for dead event ${died.id}: ${(error as Error).message}`);
  }
}
