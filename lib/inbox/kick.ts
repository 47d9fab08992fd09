/**
 * Starts the worker right after an intake answer. Embedded: one worker pass
 * at a time per process; kicks that arrive while it runs make it go round once
 * more, so no stored event waits for the 5 s schedule. Convex: nothing to do
 * here, the receive mutation scheduled the worker with the row.
 */
import { getRuntime, orchestrationContext } from "../runtime";
import { runInboxWorker, type WorkerPass } from "./worker";

interface Kicker {
  running: Promise<void> | null;
  again: boolean;
}

const KEY = Symbol.for("tollbooth.inbox.kicker");
type Holder = { [KEY]?: Kicker };

function kicker(): Kicker {
  const holder = globalThis as Holder;
  return (holder[KEY] ??= { running: null, again: false });
}

export function kickInboxWorker(): Promise<void> {
  const runtime = getRuntime();
  if (runtime.engine.kind !== "sqlite") return Promise.resolve();
  const k = kicker();
  if (k.running) {
    k.again = true;
    return k.running;
  }
  const ctx = orchestrationContext(runtime.engine, runtime.provider);
  k.running = (async () => {
    try {
      do {
        k.again = false;
        try {
          await runInboxWorker(ctx, { alertUrl: runtime.config.inbox.alertWebhookUrl });
        } catch (error) {
          ctx.log(`inbox worker pass failed: ${(error as Error).message}`);
        }
      } while (k.again);
    } finally {
      k.running = null;
    }
  })();
  return k.running;
}

/** Waits until no kicked pass is running (tests and the Engine Room). */
export async function inboxWorkerIdle(): Promise<void> {
  while (kicker().running) await kicker().running;
}

export type { WorkerPass };

/** What a replay waits on: a worker pass here, or a short sleep while Convex's scheduled worker runs. */
export function workerStep(): () => Promise<void> {
  return getRuntime().engine.kind === "sqlite" ? () => kickInboxWorker() : () => new Promise((r) => setTimeout(r, 200));
}
