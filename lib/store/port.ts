/**
 * The store port: the only way a transaction script touches data.
 *
 * Each repository method is one indexed read or one write, so the same script
 * runs unchanged over SQLite (lib/engine/sqlite) and over Convex's ctx.db
 * (convex/_store.ts). No business rule lives behind this interface: an engine
 * only stores and fetches rows.
 */
import type { AccountsRepo } from "../accounts/repo";
import type { GateRepo } from "../gate/repo";
import type { ApiKeysRepo } from "../keys/repo";
import type { LinksRepo } from "../links/repo";
import type { MeterRepo } from "../meter/repo";
import type { AllowanceRepo, InboxRepo } from "../inbox/repo";
import type { StandinRepo } from "../standin/repo";
import type { AuditRepo } from "../audit/repo";
import type { PeopleRepo } from "../people/repo";
import type { UsageRepo } from "../usage/repo";

export interface Store {
  accounts: AccountsRepo;
  usage: UsageRepo;
  apiKeys: ApiKeysRepo;
  gate: GateRepo;
  links: LinksRepo;
  meter: MeterRepo;
  inbox: InboxRepo;
  allowance: AllowanceRepo;
  standin: StandinRepo;
  people: PeopleRepo;
  audit: AuditRepo;
}

/** What a transaction script receives besides its arguments. */
export interface Tx {
  store: Store;
  /** The transaction's time, read once by the engine. Decisions take it as an argument. */
  nowMs: number;
  /** A new id with a typed prefix, e.g. newId("acct") → "acct_3kq…". */
  newId(prefix: IdPrefix): string;
  /** A number in [0, 1) from the engine's allowed random source (Convex seeds it per mutation). */
  random(): number;
}

/** Every id prefix the product hands out, in one table (see lib/ids.ts). */
export type IdPrefix = "acct" | "job" | "link" | "evt" | "key" | "run" | "evd" | "rcp" | "lease" | "agreement" | "mrec" | "event" | "msg" | "usr" | "ses" | "inv" | "aud";
