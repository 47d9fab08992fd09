/** The Kinde adapter as a provider under test, against the fake Kinde server over real HTTP. */
import { KindeProvider } from "../../../lib/provider/kinde/provider";
import type { KindeSettings } from "../../../lib/provider/settings";
import { ALL_SCOPES, startFakeKinde, type FakeKinde, type FakeKindeOptions } from "../../fakes/kinde-server";
import type { ProviderUnderTest } from "./types";

export const FAKE_CLIENT = { clientId: "fake_m2m_client", clientSecret: "fake_m2m_secret" };

export function kindeSettingsFor(fake: FakeKinde, overrides: Partial<KindeSettings> = {}): KindeSettings {
  return {
    domain: fake.url,
    clientId: FAKE_CLIENT.clientId,
    clientSecret: FAKE_CLIENT.clientSecret,
    audience: `${fake.url}/api`,
    jwksUrl: `${fake.url}/.well-known/jwks`,
    // Small pages, so every list read in the suite pages.
    pageSize: 2,
    meterRead: { path: "/api/v1/billing/meter_usage", allCyclesParam: "all_cycles=true", extraParams: "" },
    ...overrides,
  };
}

export async function kindeUnderTest(options: { fake?: FakeKindeOptions; timeoutMs?: number } = {}): Promise<ProviderUnderTest & { fake: FakeKinde; kinde: KindeProvider }> {
  const fake = await startFakeKinde(options.fake);
  // Short enough that the "stops answering" scenarios stay quick, long enough for a busy machine.
  const kinde = new KindeProvider({ settings: kindeSettingsFor(fake), timeoutMs: options.timeoutMs ?? 2_000, nowMs: fake.now });
  let accounts = 0;
  return {
    provider: kinde,
    kinde,
    fake,
    engine: null,
    async customer(limits) {
      const { customerId } = fake.addCustomer(limits);
      accounts += 1;
      return { accountId: `acct_${String(accounts).padStart(20, "0")}`, customerId, agreementId: null };
    },
    async throttle(calls, resetSeconds) {
      fake.throttle(calls, resetSeconds);
    },
    async denyScope(scope) {
      // Kinde puts the scopes in the token: the application loses the scope, and its current token stops working.
      fake.setScopes(FAKE_CLIENT.clientId, ALL_SCOPES.filter((s) => s !== scope));
      fake.expireTokens();
    },
    async stopAnswering() {
      fake.hang();
    },
    async passTime(ms) {
      fake.advance(ms);
    },
    cleanup: () => fake.close(),
  };
}
