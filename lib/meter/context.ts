/**
 * What the reporter and the reconciler run over: the orchestration context
 * (run a script, the time, a log) and the billing provider.
 */
import type { OrchestrationContext } from "../orchestrations/context";
import { ProviderError, type BillingProvider } from "../provider/port";

export type MeterContext = OrchestrationContext & { provider: BillingProvider };

export function asProviderError(error: unknown): ProviderError | null {
  if (error instanceof ProviderError) return error;
  if (typeof error === "object" && error !== null && (error as { name?: unknown }).name === "ProviderError") return error as ProviderError;
  return null;
}

export function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 1000);
}
