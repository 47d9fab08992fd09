/**
 * A handler is a pure function: from the event and the facts the apply script
 * read (in the same transaction), it returns the outcome, the sentence a
 * person reads, and the writes to make. The apply script makes them, in order,
 * and marks the event, all in one transaction. Every write is safe to repeat:
 * grants are keyed, plan and billing status writes are guarded by event time.
 */
import type { Account } from "../../accounts/repo";
import type { Cycle } from "../../usage/cycle";
import type { EventFields } from "../fields";
import type { AccountClocks, AllowanceGrant } from "../repo";

export interface HandlerFacts {
  event: { id: string; type: string; occurredAtMs: number; fields: EventFields };
  account: Account;
  /** The account's period (billing cycle) that contains the event time. */
  period: Cycle;
  /** The grants already written for that period. */
  grants: readonly AllowanceGrant[];
  /** When the billing status and the agreement id were last set by an event (their time guards). */
  clocks: AccountClocks | null;
}

export type Write =
  | { kind: "setPlan"; plan: string; planChangedAtMs: number }
  | { kind: "setAgreement"; agreementId: string; changedAtMs: number }
  | { kind: "grant"; key: string; plan: string; period: string; units: number; reason: string }
  | { kind: "setBillingStatus"; status: string; changedAtMs: number }
  /** The gate's cached limit of this account, so the next admission reads the new plan. */
  | { kind: "dropCachedLimit" }
  /** A reconcile of this account's meter (the meter part). */
  | { kind: "queueReconcile" };

export interface Decision {
  outcome: "applied" | "ignored";
  result: string;
  writes: Write[];
}

export type Handler = (facts: HandlerFacts) => Decision;

export function ignored(reason: string): Decision {
  return { outcome: "ignored", result: `ignored: ${reason}`, writes: [] };
}
