import type { Account } from "../accounts/repo";
import type { ProviderAccount } from "./port";

/** What a provider call needs to know about an account. */
export function providerAccountOf(account: Pick<Account, "id" | "kindeCustomerId" | "agreementId">): ProviderAccount {
  return { accountId: account.id, customerId: account.kindeCustomerId, agreementId: account.agreementId };
}
