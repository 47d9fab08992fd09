/**
 * The billing-provider port. The gate reads limits through it, the meter
 * writes and reads totals through it, the inbox verifies webhooks with its key
 * set. Two implementations: Kinde (real HTTP) and the built-in stand-in.
 * Provider calls are I/O: they happen in orchestrations, never inside a
 * transaction script.
 */

/** A feature's limit for one account: a whole number, or no maximum. */
export type Limit = { kind: "limited"; max: number } | { kind: "unlimited" };

export interface ProviderAccount {
  accountId: string;
  /** The provider's customer id (Kinde: customer_…). */
  customerId: string | null;
  /** The agreement that meter writes go to (Kinde: agreement_…). */
  agreementId: string | null;
}

export interface Agreement {
  id: string;
  planCode: string;
  currentPeriodStartMs: number | null;
}

/** Why a provider call did not give an answer. Each kind tells the caller what to do next. */
export type ProviderErrorKind =
  | "retry_later" // throttled (429) or briefly unavailable; `retryAfterMs` says how long
  | "not_allowed" // missing scope or bad credentials; `message` names the scope
  | "not_found"
  | "unreadable"; // the provider cannot say (no read endpoint, timeout, malformed answer)

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

export interface BillingProvider {
  readonly name: "standin" | "kinde";
  readLimit(account: ProviderAccount, featureCode: string): Promise<Limit>;
  /** Sets the meter for a cycle to `total` (an absolute write: repeating it changes nothing). */
  setUsage(account: ProviderAccount, featureCode: string, cycle: string, total: number): Promise<void>;
  /** The provider's total for a cycle. Throws ProviderError("unreadable") rather than guessing zero. */
  readUsage(account: ProviderAccount, featureCode: string, cycle: string): Promise<number>;
  currentAgreement(account: ProviderAccount): Promise<Agreement | null>;
  /** The JWKS URL webhooks are verified against. */
  webhookKeySetUrl(): string;
}
