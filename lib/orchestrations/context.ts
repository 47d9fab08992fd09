/**
 * What an orchestration gets: a way to run transaction scripts, the billing
 * provider, and the time. Orchestrations call the provider and so are never
 * transactions themselves; on Convex they run as internal actions, embedded
 * they call the engine.
 */
import type { Engine } from "../engine/types";
import type { BillingProvider } from "../provider/port";

export interface OrchestrationContext {
  run: Engine["run"];
  /** The provider the configuration chose (TOLLBOOTH_PROVIDER): Kinde or the stand-in. */
  provider: BillingProvider;
  nowMs(): number;
  log(message: string): void;
}
