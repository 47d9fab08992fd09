/**
 * Makes the billing provider the settings choose. The stand-in runs its
 * scripts through the engine it is given, so it works on either engine (and
 * inside a Convex action, through a ConvexEngine over ctx.runMutation).
 */
import type { Engine } from "../engine/types";
import { StandinProvider } from "../standin/provider";
import { KindeProvider } from "./kinde/provider";
import type { BillingProvider } from "./port";
import type { ProviderSettings } from "./settings";

export function createProvider(settings: ProviderSettings, engine: Pick<Engine, "run">, options: { fetch?: typeof fetch } = {}): BillingProvider {
  if (settings.provider === "kinde") {
    if (!settings.kinde) throw new Error("TOLLBOOTH_PROVIDER=kinde needs the KINDE_* settings");
    return new KindeProvider({ settings: settings.kinde, timeoutMs: settings.timeoutMs, fetch: options.fetch });
  }
  return new StandinProvider(engine, { callTimeoutMs: settings.timeoutMs });
}
