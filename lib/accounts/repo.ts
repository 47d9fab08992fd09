/**
 * Accounts: the app's billed customers. One row each.
 * Written by accounts.* scripts (create, connect) and by the inbox's plan
 * handlers (plan, agreement, billing status); read by every part.
 */
export interface Account {
  id: string; // acct_…
  name: string;
  /** Kinde's billing customer id (customer_…); unique when set. */
  kindeCustomerId: string | null;
  /** The plan key the account is on (e.g. "free", "pro"). */
  plan: string;
  /** Event time of the plan change that set `plan` (the inbox's time guard); 0 when never changed by an event. */
  planChangedAtMs: number;
  /** The provider agreement that meter writes go to; null until connected. */
  agreementId: string | null;
  /** Start of the agreement that anchors billing cycles; null means UTC calendar months. */
  cycleAnchorMs: number | null;
  /** "ok", or the last billing problem the provider reported ("payment_failed", "invoice_overdue"). */
  billingStatus: string;
  createdAtMs: number;
}

export type AccountPatch = Partial<Omit<Account, "id" | "createdAtMs">>;

export interface AccountsRepo {
  insert(account: Account): Promise<void>;
  get(id: string): Promise<Account | null>;
  getByKindeCustomerId(kindeCustomerId: string): Promise<Account | null>;
  /** Ordered by id; `afterId` pages. `limit` is at most 200. */
  list(options: { limit: number; afterId?: string }): Promise<Account[]>;
  patch(id: string, patch: AccountPatch): Promise<void>;
}
