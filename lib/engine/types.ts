import type { ArgsOf, ResultOf, Script } from "../scripts/define";

export type EngineKind = "sqlite" | "convex";

/** The one way the app runs a transaction script, whichever engine holds the data. */
export interface Engine {
  readonly kind: EngineKind;
  run<S extends Script>(script: S, args: ArgsOf<S>): Promise<ResultOf<S>>;
  /** Engine facts for /api/health. */
  info(): Promise<EngineInfo>;
  close(): Promise<void>;
}

export interface EngineInfo {
  kind: EngineKind;
  /** Highest migration applied (SQLite) or null where the engine has none (Convex deploys its schema). */
  migrationVersion: number | null;
  detail: Record<string, string | number | boolean>;
}
