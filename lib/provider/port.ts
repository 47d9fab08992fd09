/**
 * The billing-provider port. The gate reads limits through it, the meter
 * writes and reads totals through it, the inbox verifies webhooks with its key
 * set. Two implementations: Kinde (lib/provider/kinde, real HTTP) and the
 * built-in stand-in (lib/standin, persistent, with fault switches). The same
 * contract suite (tests/contract/provider.test.ts) runs against both.
 *
 * Provider calls are I/O: they happen in orchestrations, never inside a
 * transaction script. Every method either answers or throws a ProviderError;
 * nothing else escapes (a bug aside).
 */
import type { JWTVerifyGetKey } from "jose";

/** A feature's limit for one account: a whole number, or no maximum. */
export type Limit = { kind: "limited"; max: number } | { kind: "unlimited" };

/** Who a provider call is about. Build it from an Account with providerAccountOf (lib/provider/account.ts). */
export interface ProviderAccount {
  accountId: string;
  /** The provider's customer id (Kinde: customer_…). Kinde needs it; the stand-in keys on accountId. */
  customerId: string | null;
  /** The agreement that meter writes go to (Kinde: agreement_…); null: the provider's current agreement is used. */
  agreementId: string | null;
}

export interface Agreement {
  /** agreement_… */
  id: string;
  planCode: string;
  /** Start of the current billing cycle (Kinde: current_period_start); null when the provider has no current cycle. */
  currentPeriodStartMs: number | null;
}

/** Why a provider call did not give an answer. Each kind tells the caller what to do next. */
export type ProviderErrorKind =
  | "retry_later" // throttled (429), a failed or timed-out write, a 5xx: try again later; `retryAfterMs` says when, if known
  | "not_allowed" // missing scope or refused credentials; `message` (and `scope`) name what is missing
  | "not_found" // no such customer, agreement or feature on the plan
  | "rejected" // the provider refused the request as invalid (400): repeating it will not help
  | "unreadable"; // the provider cannot say (no read endpoint, a timed-out read, a malformed answer): never read it as zero

export class ProviderError extends Error {
  readonly scope: string | undefined;
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly retryAfterMs?: number,
    extra?: { scope?: string },
  ) {
    super(message);
    this.name = "ProviderError";
    this.scope = extra?.scope;
  }
}

export function isProviderError(value: unknown): value is ProviderError {
  return value instanceof ProviderError || (typeof value === "object" && value !== null && (value as { name?: unknown }).name === "ProviderError");
}

export interface BillingProvider {
  readonly name: "standin" | "kinde";
  /** The account's limit for a feature. A feature the plan does not grant throws ProviderError("not_found"). */
  readLimit(account: ProviderAccount, featureCode: string): Promise<Limit>;
  /**
   * Sets the meter for a cycle to `total` (an absolute write: repeating it changes nothing).
   * Kinde applies a write to the customer's current cycle whatever `cycle` says (a write after a
   * cycle closed lands in the next one), so callers must not write a cycle they believe closed.
   */
  setUsage(account: ProviderAccount, featureCode: string, cycle: string, total: number): Promise<void>;
  /** The provider's total for a cycle (0 when the provider says nothing was written). Throws ProviderError("unreadable") rather than guessing zero. */
  readUsage(account: ProviderAccount, featureCode: string, cycle: string): Promise<number>;
  /** The account's current agreement, or null when it has none. */
  currentAgreement(account: ProviderAccount): Promise<Agreement | null>;
  /**
   * The keys webhooks are signed with, for jose:
   * `jwtVerify(token, provider.webhookKeys(), { algorithms: ["RS256"] })`.
   * Cached; an unknown `kid` refreshes the set (at most once per cool-down).
   */
  webhookKeys(): JWTVerifyGetKey;
  /** Where the key set is published (for display and for operators). */
  webhookKeySetUrl(): string;
}
