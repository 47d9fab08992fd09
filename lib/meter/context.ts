/**
 * What the reporter and the reconciler run over: the orchestration context
 * (run a script, the provider, the time, a log).
 */
import type { OrchestrationContext } from "../orchestrations/context";
import { isProviderError, type ProviderError } from "../provider/port";

export type MeterContext = OrchestrationContext;

export function asProviderError(error: unknown): ProviderError | null {
  return isProviderError(error) ? error : null;
}

export function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 1000);
}
