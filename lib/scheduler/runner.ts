/**
 * The in-process scheduler for the embedded engine. Each job runs every
 * `intervalMs`, never twice at once (the next run is timed from the end of the
 * last); a job's error is logged and does not stop it or the others; stop()
 * cancels the timers and waits for runs in progress.
 */
import type { OrchestrationContext } from "../orchestrations/context";
import type { Schedule } from "./schedules";

export interface JobState {
  name: string;
  runs: number;
  failures: number;
  running: boolean;
  lastError: string | null;
  lastFinishedAtMs: number | null;
}

export class Scheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly states = new Map<string, JobState>();
  private stopped = false;

  constructor(
    private readonly jobs: readonly Schedule[],
    private readonly ctx: OrchestrationContext,
  ) {
    for (const job of jobs) {
      if (this.states.has(job.name)) throw new Error(`Two schedules are named ${job.name}`);
      this.states.set(job.name, { name: job.name, runs: 0, failures: 0, running: false, lastError: null, lastFinishedAtMs: null });
    }
  }

  start(): void {
    for (const job of this.jobs) this.arm(job);
  }

  state(): JobState[] {
    return [...this.states.values()].map((s) => ({ ...s }));
  }

  /** Runs one job now unless it is already running; returns false when it was. */
  async runNow(name: string): Promise<boolean> {
    const job = this.jobs.find((j) => j.name === name);
    if (!job) throw new Error(`No schedule named ${name}`);
    const state = this.states.get(name)!;
    if (state.running) return false;
    await this.execute(job);
    return true;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  private arm(job: Schedule): void {
    if (this.stopped) return;
    const timer = setTimeout(async () => {
      await this.execute(job);
      this.arm(job);
    }, job.intervalMs);
    timer.unref();
    this.timers.set(job.name, timer);
  }

  private async execute(job: Schedule): Promise<void> {
    const state = this.states.get(job.name)!;
    if (state.running || this.stopped) return;
    state.running = true;
    const run = (async () => {
      try {
        await job.run(this.ctx);
        state.lastError = null;
      } catch (error) {
        state.failures++;
        state.lastError = error instanceof Error ? error.message : String(error);
        this.ctx.log(`schedule ${job.name} failed: ${state.lastError}`);
      } finally {
        state.runs++;
        state.running = false;
        state.lastFinishedAtMs = this.ctx.nowMs();
      }
    })();
    this.inFlight.add(run);
    await run;
    this.inFlight.delete(run);
  }
}
