/** The stand-in as a provider under test, on either engine. */
import * as accounts from "../../../lib/accounts/scripts";
import { StandinProvider } from "../../../lib/standin/provider";
import * as standin from "../../../lib/standin/scripts";
import type { EngineUnderTest } from "../engines";
import type { ProviderUnderTest } from "./types";

export async function standinUnderTest(makeEngine: () => Promise<EngineUnderTest>): Promise<ProviderUnderTest> {
  const under = await makeEngine();
  const { engine } = under;
  // A stopped stand-in is waited for without sleeping: the wait resolves at once.
  const provider = new StandinProvider(engine, { callTimeoutMs: 5_000, wait: async () => {} });
  return {
    provider,
    engine,
    async customer(limits) {
      const account = await engine.run(accounts.create, { name: "Contract customer" });
      // Overrides replace the plan's limits; features the plan has and the map lacks are dropped to 0 nowhere: they keep the plan's.
      for (const [featureCode, limitMax] of Object.entries(limits)) await engine.run(standin.setLimit, { accountId: account.id, featureCode, limitMax });
      return { accountId: account.id, customerId: account.kindeCustomerId, agreementId: null };
    },
    async throttle(calls, resetSeconds) {
      await engine.run(standin.setFault, { kind: "rate_limit", count: calls, resetSeconds });
    },
    async denyScope(scope) {
      await engine.run(standin.setFault, { kind: "deny_scope", scope });
    },
    async stopAnswering() {
      await engine.run(standin.setFault, { kind: "hang", count: null });
    },
    async passTime() {},
    cleanup: () => under.cleanup(),
  };
}
