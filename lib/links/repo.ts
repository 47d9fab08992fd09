/**
 * Short links (Part B). Each link belongs to one account; a click on
 * /r/<code> is one ledger row (feature "clicks") written by links.click.
 *
 *  - links: written by links.create; read by every redirect and the pages.
 *  - link_clicks: a per-link tally by cycle and UTC day for the stats chart,
 *    split over 16 shard rows like the usage counters so that clicks on one
 *    busy link rarely touch the same row. Written in the click's own
 *    transaction (and by a correction of a click); display only: the ledger
 *    stays the record that billing is proved against.
 */
export interface Link {
  id: string; // link_…
  /** The short code in /r/<code>; unique. */
  code: string;
  accountId: string;
  /** An absolute http(s) URL. */
  destination: string;
  createdAtMs: number;
}

export const LINK_CLICK_SHARDS = 16;

export interface DayClicks {
  /** "YYYY-MM-DD" (UTC). */
  day: string;
  clicks: number;
}

export interface LinksRepo {
  getByCode(code: string): Promise<Link | null>;
  insert(link: Link): Promise<void>;
  /** An account's links, newest first; at most `limit` (≤ 200). */
  listByAccount(accountId: string, limit: number): Promise<Link[]>;
  /** Every account's links, newest first; at most `limit` (≤ 200). */
  listAll(limit: number): Promise<Link[]>;
  /** Adds `clicks` to one shard of a link's tally for (cycle, day), creating it at zero first. */
  addClicks(code: string, cycle: string, day: string, shard: number, clicks: number): Promise<void>;
  /** The shard rows of a link's tally in one cycle (≤ 32 days × 16 shards), unsummed. */
  readClicks(code: string, cycle: string): Promise<DayClicks[]>;
}
