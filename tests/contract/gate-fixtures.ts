/**
 * Shared pieces for the gate's tests: a billing provider whose limit, failure
 * and call count the test controls (the freshness logic is about exactly
 * those three things), and a gate context over any engine.
 */
import { vi } from "vitest";
import * as accounts from "../../lib/accounts/scripts";
import type { Engine } from "../../lib/engine/types";
import type { GateContext } from "../../lib/gate/orchestrate";
import { ProviderError, type Limit, type ProviderAccount } from "../../lib/provider/port";

export class ControlledProvider {
  readonly name = "standin" as const;
  /** The limit per account id; `fallback` for any other account. */
  readonly limits = new Map<string, Limit>();
  fallback: Limit = { kind: "limited", max: 100_000 };
  /** While true every read fails as unreadable. */
  down = false;
  /** Each read takes this long (real time). */
  delayMs = 0;
  reads = 0;
  readsByAccount = new Map<string, number>();

  async readLimit(account: ProviderAccount, _feature: string): Promise<Limit> {
    this.reads++;
    this.readsByAccount.set(account.accountId, (this.readsByAccount.get(account.accountId) ?? 0) + 1);
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (this.down) throw new ProviderError("unreadable", "The provider did not answer (test switch).");
    return this.limits.get(account.accountId) ?? this.fallback;
  }

  setLimit(accountId: string, max: number | null): void {
    this.limits.set(accountId, max === null ? { kind: "unlimited" } : { kind: "limited", max });
  }
}

export function gateContext(engine: Engine, provider: ControlledProvider, leaseMs = 120_000): GateContext {
  return { run: engine.run.bind(engine), provider, nowMs: () => Date.now(), log: () => {}, leaseMs, sleep: async () => {} };
}

export const T0 = Date.UTC(2026, 9, 20, 12, 0, 0);

/** Fakes only Date, so timers and setImmediate (group commit) keep working. Call before making the engine. */
export function freezeTime(at = T0): { advance(ms: number): void; now(): number } {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(at);
  return {
    advance: (ms) => vi.setSystemTime(Date.now() + ms),
    now: () => Date.now(),
  };
}

export async function newAccount(engine: Engine, provider: ControlledProvider, max: number | null, name = "Gate Co"): Promise<string> {
  const account = await engine.run(accounts.create, { name });
  provider.setLimit(account.id, max);
  return account.id;
}
