/**
 * The stand-in billing provider's own tables (migration 0004, convex/tables/standin.ts).
 * Written and read only by standin.* scripts, which StandinProvider
 * (lib/standin/provider.ts) runs for each provider call, and by the operator's
 * admin API and Provider page. The app's other parts never read them: they
 * reach the stand-in through the BillingProvider port, as they would Kinde.
 */

/** One current agreement per account, made on first use (Kinde: a customer's agreement). */
export interface StandinAgreement {
  accountId: string;
  id: string; // agreement_…; a plan change makes a new one
  planCode: string;
  /** Start of the first period; every period starts on this day of the month and time of day (day 1–28). */
  anchorMs: number;
  createdAtMs: number;
  updatedAtMs: number;
}

/** An operator's limit for one account and feature, replacing the plan's. `limitMax` null is unlimited. */
export interface StandinLimitOverride {
  accountId: string;
  featureCode: string;
  limitMax: number | null;
  setAtMs: number;
}

export type MeterRecordKind = "absolute" | "delta";

/** One write to the stand-in's meter, kept as written (append-only). */
export interface StandinMeterRecord {
  id: string; // mrec_…
  accountId: string;
  featureCode: string;
  cycle: string;
  /** The record's number within its cycle, from 1: the order the fold follows. */
  seq: number;
  kind: MeterRecordKind;
  value: number;
  /** The cycle's total after this record: the fold of every record up to it. */
  totalAfter: number;
  /** "write": a provider call; "drift": the drift fault moved the meter. */
  source: "write" | "drift";
  recordedAtMs: number;
}

/** The fold of a cycle's records (absolute replaces, delta adds), kept beside them so a read is one row. */
export interface StandinMeterTotal {
  accountId: string;
  featureCode: string;
  cycle: string;
  total: number;
  records: number;
  updatedAtMs: number;
}

export type FaultKind = "fail_writes" | "rate_limit" | "drift" | "hang" | "deny_scope";

/** A fault switch that is on. One row per kind; clearing deletes it; a count reaching zero deletes it. */
export interface StandinFault {
  kind: FaultKind;
  /** Calls (or writes) left to affect; null: until cleared. */
  remaining: number | null;
  /** rate_limit: the reset time in seconds; drift: the units each affected write moves the meter by. */
  amount: number | null;
  /** deny_scope: the scope the stand-in pretends the application lacks. */
  scope: string | null;
  setAtMs: number;
}

/** The stand-in's webhook signing key (RS256). Private half stays in this table. */
export interface StandinSigningKey {
  kid: string;
  publicJwk: string; // JSON
  privateJwk: string; // JSON
  createdAtMs: number;
}

export interface StandinRepo {
  getAgreement(accountId: string): Promise<StandinAgreement | null>;
  /** Inserts or replaces the account's agreement. */
  putAgreement(agreement: StandinAgreement): Promise<void>;

  getOverride(accountId: string, featureCode: string): Promise<StandinLimitOverride | null>;
  /** The account's overrides, ordered by feature; at most `limit` (≤ 100). */
  listOverrides(accountId: string, limit: number): Promise<StandinLimitOverride[]>;
  /** Every override, ordered by account then feature, after (accountId, featureCode); at most `limit` (≤ 200). */
  listAllOverrides(options: { limit: number; after?: { accountId: string; featureCode: string } }): Promise<StandinLimitOverride[]>;
  putOverride(override: StandinLimitOverride): Promise<void>;
  deleteOverride(accountId: string, featureCode: string): Promise<void>;

  getTotal(accountId: string, featureCode: string, cycle: string): Promise<StandinMeterTotal | null>;
  putTotal(total: StandinMeterTotal): Promise<void>;
  insertRecord(record: StandinMeterRecord): Promise<void>;
  /** A cycle's records, newest first; at most `limit` (≤ 200). */
  listRecords(accountId: string, featureCode: string, cycle: string, limit: number): Promise<StandinMeterRecord[]>;

  /** Every switch that is on (there are at most five kinds). */
  listFaults(): Promise<StandinFault[]>;
  putFault(fault: StandinFault): Promise<void>;
  deleteFault(kind: FaultKind): Promise<void>;

  /** The signing keys, newest first; at most `limit` (≤ 10). */
  listKeys(limit: number): Promise<StandinSigningKey[]>;
  insertKey(key: StandinSigningKey): Promise<void>;
}
