/**
 * Short links: create, resolve, click and stats. A click is one ledger row
 * (feature "clicks", source "click", ref = the code) in the cycle of the
 * link's account, written with the key the redirect made before anything
 * else, so a retried click counts once.
 */
import { z } from "zod";
import { AppError, invariant } from "../errors";
import { mutation, query } from "../scripts/define";
import type { Tx } from "../store/port";
import { cycleNamed, cycleOf } from "../usage/cycle";
import { recordUsage } from "../usage/record";
import { LINK_CLICK_SHARDS, type Link } from "./repo";
import { ANY_CODE_PATTERN, codeProblem, destinationProblem, DESTINATION_LENGTH_MAX, generateCode, utcDay } from "./rules";

export const CLICKS_FEATURE = "clicks";
/** Attempts at a fresh generated code before giving up (each collision is checked in this transaction). */
const CODE_ATTEMPTS = 8;

const accountId = z.string().regex(/^acct_[0-9a-z]{20}$/, "an account id (acct_ followed by 20 characters)");
export const anyCode = z.string().regex(ANY_CODE_PATTERN, "a short-link code");
/** Made by the redirect before anything else: "click_" and a UUID. */
export const clickKey = z.string().regex(/^click_[0-9a-f-]{36}$/, "a click key (click_ and a UUID)");

export const linkSchema = z.object({ id: z.string(), code: z.string(), accountId: z.string(), destination: z.string(), createdAtMs: z.number() });

export const createLinkArgs = z.strictObject({
  accountId,
  destination: z.string().max(DESTINATION_LENGTH_MAX, `a destination has at most ${DESTINATION_LENGTH_MAX} characters`),
  /** A custom code; generated when absent. */
  code: z.string().max(32, "a code has at most 32 characters").optional(),
  /** The hosts this app answers on (the request's Host), so a link to the app's own /r/ path is refused. */
  selfHosts: z.array(z.string().max(300)).max(5).optional(),
});

/** Creates a link with a custom or a generated code. */
export const create = mutation("links.create", createLinkArgs, linkSchema, async (tx, args) => {
  const problem = destinationProblem(args.destination, args.selfHosts ?? []);
  if (problem) throw new AppError("invalid_input", `destination: ${problem}`);
  const account = await tx.store.accounts.get(args.accountId);
  if (!account) throw new AppError("not_found", `No account ${args.accountId}.`);
  const code = args.code === undefined ? await freshCode(tx) : await customCode(tx, args.code);
  // Stored as the URL parser writes it (percent-encoded), so it can go into a Location header as it is.
  const destination = new URL(args.destination).href;
  const link: Link = { id: tx.newId("link"), code, accountId: account.id, destination, createdAtMs: tx.nowMs };
  await tx.store.links.insert(link);
  return link;
});

async function customCode(tx: Tx, code: string): Promise<string> {
  const problem = codeProblem(code);
  if (problem) throw new AppError("invalid_input", `code: ${problem}`);
  if (await tx.store.links.getByCode(code)) throw new AppError("conflict", `The code ${code} is taken; choose another.`);
  return code;
}

async function freshCode(tx: Tx): Promise<string> {
  for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
    const code = generateCode(tx.random);
    if (!(await tx.store.links.getByCode(code))) return code;
  }
  throw new AppError("unavailable", "No free short code was found; try again.");
}

/** What a redirect needs: the destination (Convex answers the redirect from this, then records the click). */
export const resolve = query("links.resolve", z.strictObject({ code: anyCode }), z.object({ destination: z.string() }).nullable(), async (tx, args) => {
  const link = await tx.store.links.getByCode(args.code);
  return link ? { destination: link.destination } : null;
});

/**
 * Records one click: its ledger row (in the account's current cycle, with
 * its counter shard and the cycle's mark) and the link's day tally, in one
 * transaction. The same key again records nothing. An unknown code records
 * nothing and answers null.
 */
export const click = mutation(
  "links.click",
  z.strictObject({ code: anyCode, key: clickKey }),
  z.object({ destination: z.string(), recorded: z.boolean() }).nullable(),
  async (tx, args) => {
    const link = await tx.store.links.getByCode(args.code);
    if (!link) return null;
    const account = await tx.store.accounts.get(link.accountId);
    invariant(account, `link ${link.code} of a missing account ${link.accountId}`);
    const cycle = cycleOf(tx.nowMs, account.cycleAnchorMs).name;
    const { recorded } = await recordUsage(tx, { key: args.key, accountId: account.id, feature: CLICKS_FEATURE, cycle, units: 1, source: "click", ref: link.code });
    if (recorded) await tx.store.links.addClicks(link.code, cycle, utcDay(tx.nowMs), Math.floor(tx.random() * LINK_CLICK_SHARDS), 1);
    return { destination: link.destination, recorded };
  },
);

/** `asAccountId` scopes the read: another account's link reads as missing (null: the operator). */
const asAccountId = accountId.nullable().default(null);

async function ownedLink(tx: Tx, code: string, asker: string | null): Promise<Link | null> {
  const link = await tx.store.links.getByCode(code);
  return link && (asker === null || link.accountId === asker) ? link : null;
}

export const get = query("links.get", z.strictObject({ code: anyCode, asAccountId }), linkSchema.nullable(), async (tx, args) => ownedLink(tx, args.code, args.asAccountId));

export const list = query(
  "links.list",
  z.strictObject({ accountId: accountId.optional(), limit: z.number().int().min(1).max(200).default(100) }),
  z.object({ links: z.array(linkSchema) }),
  async (tx, args) => ({
    links: args.accountId === undefined ? await tx.store.links.listAll(args.limit) : await tx.store.links.listByAccount(args.accountId, args.limit),
  }),
);

/** A link's clicks in its account's current cycle (or the named one), in total and by UTC day. */
export const stats = query(
  "links.stats",
  z.strictObject({ code: anyCode, cycle: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/).optional(), asAccountId }),
  z
    .object({
      link: linkSchema,
      cycle: z.string(),
      cycleStartMs: z.number(),
      cycleEndMs: z.number(),
      clicks: z.number(),
      days: z.array(z.object({ day: z.string(), clicks: z.number() })),
    })
    .nullable(),
  async (tx, args) => {
    const link = await ownedLink(tx, args.code, args.asAccountId);
    if (!link) return null;
    const account = await tx.store.accounts.get(link.accountId);
    invariant(account, `link ${link.code} of a missing account ${link.accountId}`);
    const current = cycleOf(tx.nowMs, account.cycleAnchorMs);
    const cycleName = args.cycle ?? current.name;
    const rows = await tx.store.links.readClicks(link.code, cycleName);
    const byDay = new Map<string, number>();
    for (const row of rows) byDay.set(row.day, (byDay.get(row.day) ?? 0) + row.clicks);
    const days = [...byDay].map(([day, clicks]) => ({ day, clicks })).sort((a, b) => a.day.localeCompare(b.day));
    const { startMs, endMs } = args.cycle === undefined ? current : cycleNamed(args.cycle, account.cycleAnchorMs);
    return { link, cycle: cycleName, cycleStartMs: startMs, cycleEndMs: endMs, clicks: days.reduce((sum, d) => sum + d.clicks, 0), days };
  },
);


export const ACCOUNT_LINKS_MAX = 20;

/** One account's links, newest first, each with its clicks in the account's current cycle (the member's Links page). */
export const listWithClicks = query(
  "links.listWithClicks",
  z.strictObject({ accountId, limit: z.number().int().min(1).max(ACCOUNT_LINKS_MAX).default(20) }),
  z.object({ cycle: z.string(), links: z.array(z.object({ link: linkSchema, clicks: z.number() })) }),
  async (tx, args) => {
    const account = await tx.store.accounts.get(args.accountId);
    if (!account) return { cycle: "", links: [] };
    const cycle = cycleOf(tx.nowMs, account.cycleAnchorMs).name;
    const own = await tx.store.links.listByAccount(args.accountId, args.limit);
    const withClicks = [];
    for (const link of own) {
      const rows = await tx.store.links.readClicks(link.code, cycle);
      withClicks.push({ link, clicks: rows.reduce((sum, r) => sum + r.clicks, 0) });
    }
    return { cycle, links: withClicks };
  },
);
