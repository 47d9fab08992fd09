import type { Engine } from "../../../lib/engine/types";
import type { BillingProvider, ProviderAccount } from "../../../lib/provider/port";

/** One implementation of the port, with the levers the contract scenarios pull. */
export interface ProviderUnderTest {
  provider: BillingProvider;
  /** The app's engine beside the provider (the stand-in keeps its state there). */
  engine: Engine | null;
  /** A customer whose plan grants these features (null: no maximum). */
  customer(limits: Record<string, number | null>): Promise<ProviderAccount>;
  /** The next `calls` calls are throttled (429) with RateLimit-Reset `resetSeconds`. */
  throttle(calls: number, resetSeconds: number): Promise<void>;
  /** The application lacks `scope` from now on. */
  denyScope(scope: string): Promise<void>;
  /** The provider stops answering: calls time out. */
  stopAnswering(): Promise<void>;
  /** Moves the provider's and the adapter's clocks on. */
  passTime(ms: number): Promise<void>;
  cleanup(): Promise<void>;
}
