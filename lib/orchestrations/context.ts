/**
 * What an orchestration gets: a way to run transaction scripts and the time.
 * Orchestrations call the provider and so are never transactions themselves;
 * on Convex they run as internal actions, embedded they call the engine.
 * Later parts add the billing provider here.
 */
import type { Engine } from "../engine/types";

export interface OrchestrationContext {
  run: Engine["run"];
  nowMs(): number;
  log(message: string): void;
}
