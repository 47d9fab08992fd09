/**
 * /api/v1/accounts and /api/v1/accounts/:id as plain handlers (re-exported by
 * app/api/v1/accounts/**\/route.ts, served directly by server/main.ts).
 */
import { z } from "zod";
import * as accounts from "../accounts/scripts";
import { AppError } from "../errors";
import * as gate from "../gate/scripts";
import { actorOf, assertOwns, authenticate, notFound } from "../http/auth";
import { json, readJson, requireOperator, route } from "../http/api";
import { generateApiKey } from "../keys/token";
import { getRuntime } from "../runtime";
import * as standin from "../standin/scripts";
import { featureCode } from "../usage/scripts";
import { parseInput, queryInt } from "../validation";

export const LIMITS_PER_ACCOUNT_MAX = 20;

const openBody = accounts.createAccountArgs.extend({
  /** On the stand-in: the account's plan limits per feature (null: no maximum), e.g. { "tokens": 100000 }. */
  limits: z
    .record(featureCode, z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable())
    .refine((l) => Object.keys(l).length <= LIMITS_PER_ACCOUNT_MAX, `at most ${LIMITS_PER_ACCOUNT_MAX} features`)
    .optional(),
  /** New jobs the account may start per minute (default 120). */
  admissionsPerMinute: gate.configureAccount.args.shape.admissionsPerMinute.optional(),
});

/** Operator: opens an account and returns its id and first API key (shown this once). */
export const openAccount = route(async (request: Request) => {
  const principal = await requireOperator(request);
  const { limits, admissionsPerMinute, ...args } = parseInput(openBody, await readJson(request), "body");
  const runtime = getRuntime();
  if (limits && runtime.config.provider !== "standin") {
    throw new AppError("invalid_input", "limits: plan limits can be set here only on the built-in stand-in; with Kinde they come from the customer's plan.");
  }
  const key = generateApiKey();
  const { account, keyId } = await runtime.engine.run(accounts.open, {
    ...args,
    key: { hash: key.hash, prefix: key.prefix, last4: key.last4 },
    actor: actorOf(principal),
  });
  // Separate transactions: the stand-in's tables belong to the provider. A failure here leaves the account on its plan's limits.
  for (const [feature, limitMax] of Object.entries(limits ?? {})) {
    await runtime.engine.run(standin.setLimit, { accountId: account.id, featureCode: feature, limitMax });
  }
  if (admissionsPerMinute !== undefined) await runtime.engine.run(gate.configureAccount, { accountId: account.id, admissionsPerMinute });
  return json({ account, apiKey: { id: keyId, key: key.token }, ...(limits ? { limits } : {}), ...(admissionsPerMinute ? { admissionsPerMinute } : {}) }, 201);
});

/** Operator: one page of accounts. */
export const listAccounts = route(async (request: Request) => {
  await requireOperator(request);
  const url = new URL(request.url);
  const query = parseInput(
    accounts.list.args,
    { limit: queryInt(url.searchParams.get("limit")) ?? 50, ...(url.searchParams.has("after") ? { afterId: url.searchParams.get("after") } : {}) },
    "query",
  );
  return json(await getRuntime().engine.run(accounts.list, query));
});

/** The account itself: its own key or the operator. */
export const getAccount = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const principal = await authenticate(request);
  const { id } = await params;
  assertOwns(principal, id, "account", id);
  const account = /^acct_[0-9a-z]{20}$/.test(id) ? await getRuntime().engine.run(accounts.get, { id }) : null;
  if (!account) throw notFound("account", id);
  return json({ account });
});

/**
 * Operator: edit an account's name, Kinde customer id (null disconnects) or
 * cycle anchor (refused once the account has usage). Audited in the same
 * transaction.
 */
export const updateAccount = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const principal = await requireOperator(request);
  const { id } = await params;
  const changes = parseInput(accounts.updateAccountArgs, await readJson(request), "body");
  if (!/^acct_[0-9a-z]{20}$/.test(id)) throw notFound("account", id);
  const account = await getRuntime().engine.run(accounts.update, { id, ...changes, actor: actorOf(principal) });
  return json({ account });
});
