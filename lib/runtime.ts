/**
 * The server's one runtime: config, engine, operator secrets and scheduler,
 * made once per process and kept on globalThis (Next.js loads a module more
 * than once; two SQLite handles in one process would deadlock each other).
 */
import { ConvexHttpClient } from "convex/browser";
import { readConfig, type Config } from "./config";
import { ConvexEngine, type ConvexCaller } from "./engine/convex/engine";
import { SqliteEngine } from "./engine/sqlite/engine";
import type { Engine } from "./engine/types";
import { loadOperatorSecrets, type OperatorSecrets } from "./ops/operator";
import type { OrchestrationContext } from "./orchestrations/context";
import { createProvider } from "./provider/factory";
import type { BillingProvider } from "./provider/port";
import { Scheduler } from "./scheduler/runner";
import { schedules } from "./scheduler/schedules";
import { StandinProvider } from "./standin/provider";

export interface Runtime {
  config: Config;
  engine: Engine;
  /** The billing provider TOLLBOOTH_PROVIDER chose: Kinde, or the stand-in (the default). */
  provider: BillingProvider;
  /**
   * The stand-in, whichever provider is chosen: its operator surface (limits,
   * fault switches, signed test webhooks) works on its own tables. The same
   * object as `provider` when the stand-in is the provider.
   */
  standin: StandinProvider;
  operator: OperatorSecrets;
  scheduler: Scheduler | null;
  /** startRuntime ran (the production server and Next.js's instrumentation both call it; the second call does nothing). */
  started: boolean;
  startedAtMs: number;
}

const KEY = Symbol.for("tollbooth.runtime");
type Holder = { [KEY]?: Runtime };

export function getRuntime(): Runtime {
  const holder = globalThis as Holder;
  return (holder[KEY] ??= createRuntime());
}

function createRuntime(config: Config = readConfig()): Runtime {
  const engine = createEngine(config);
  const operator = loadOperatorSecrets(config.dataDir, config.operatorTokenOverride, config.sessionSecretOverride);
  const provider = createProvider({ provider: config.provider, timeoutMs: config.providerTimeoutMs, kinde: config.kinde }, engine);
  const standin = provider instanceof StandinProvider ? provider : new StandinProvider(engine, { callTimeoutMs: config.providerTimeoutMs });
  return { config, engine, provider, standin, operator, scheduler: null, started: false, startedAtMs: Date.now() };
}

/**
 * Runs `fn` with a throwaway embedded runtime (SQLite in `dataDir`, the stand-in, no schedules, no printed tokens) as
 * the process's runtime, then closes it and leaves no runtime behind, so the next getRuntime() makes the real one.
 * Only before the real runtime exists: the production server's warm-up (server/warmup.ts) uses it.
 */
export async function withScratchRuntime<T>(dataDir: string, fn: (runtime: Runtime) => Promise<T>): Promise<T> {
  const holder = globalThis as Holder;
  if (holder[KEY]) throw new Error("withScratchRuntime: the process already has a runtime");
  const config: Config = { ...readConfig(), engine: "sqlite", provider: "standin", kinde: null, dataDir, schedulerEnabled: false, operatorTokenOverride: null, sessionSecretOverride: null };
  const runtime = createRuntime(config);
  holder[KEY] = runtime;
  try {
    return await fn(runtime);
  } finally {
    delete holder[KEY];
    await runtime.engine.close();
  }
}

function createEngine(config: Config): Engine {
  if (config.engine === "sqlite") return new SqliteEngine({ dataDir: config.dataDir });
  const client = new ConvexHttpClient(config.convexUrl!);
  return new ConvexEngine(client as unknown as ConvexCaller, config.serverKey!, config.convexUrl!);
}

export function orchestrationContext(engine: Engine, provider: BillingProvider): OrchestrationContext {
  return {
    run: engine.run.bind(engine),
    provider,
    nowMs: Date.now,
    log: (message) => console.log(`[tollbooth] ${message}`),
  };
}

/**
 * Called once from instrumentation.ts when the server starts: prints the
 * operator token the first time, starts the in-process schedules (embedded
 * engine only; Convex runs its own crons) and closes cleanly on a signal.
 */
export function startRuntime(): Runtime {
  const runtime = getRuntime();
  if (runtime.started) return runtime;
  runtime.started = true;
  if (runtime.operator.created) {
    console.log(
      [
        "",
        "  Tollbooth made an operator token. It is shown this once; it is also stored,",
        `  readable only by you, in ${runtime.config.dataDir}/operator-token.`,
        `    ${runtime.operator.token}`,
        "  Scripts and the admin API send it as Authorization: Bearer <token>.",
        "",
      ].join("\n"),
    );
  }
  if (runtime.operator.createdSetupToken) {
    console.log(
      [
        "",
        "  First run: make the first operator at /setup with this one-time setup token.",
        `    ${runtime.operator.createdSetupToken}`,
        `  It is also in ${runtime.operator.setupTokenFile} until it is used.`,
        "",
      ].join("\n"),
    );
  }
  if (runtime.config.engine === "sqlite" && runtime.config.schedulerEnabled) {
    runtime.scheduler = new Scheduler(schedules, orchestrationContext(runtime.engine, runtime.provider));
    runtime.scheduler.start();
  }
  const shutdown = async (signal: string) => {
    console.log(`[tollbooth] ${signal}: stopping schedules and closing the database`);
    await runtime.scheduler?.stop();
    await runtime.engine.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
  return runtime;
}
