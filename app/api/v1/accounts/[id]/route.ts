import * as accounts from "@/lib/accounts/scripts";
import { actorOf, assertOwns, authenticate, notFound } from "@/lib/http/auth";
import { json, readJson, requireOperator, route } from "@/lib/http/api";
import { getRuntime } from "@/lib/runtime";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

const ACCOUNT_ID = /^acct_[0-9a-z]{20}$/;

/** The account itself: its own key or member, or the operator. */
export const GET = route(async (request: Request, { params }: Context) => {
  const principal = await authenticate(request);
  const { id } = await params;
  assertOwns(principal, id, "account", id);
  const account = ACCOUNT_ID.test(id) ? await getRuntime().engine.run(accounts.get, { id }) : null;
  if (!account) throw notFound("account", id);
  return json({ account });
});

/**
 * Operator: edit an account's name, Kinde customer id (null disconnects) or
 * cycle anchor (refused once the account has usage). Audited in the same
 * transaction.
 */
export const PATCH = route(async (request: Request, { params }: Context) => {
  const principal = await requireOperator(request);
  const { id } = await params;
  const changes = parseInput(accounts.updateAccountArgs, await readJson(request), "body");
  if (!ACCOUNT_ID.test(id)) throw notFound("account", id);
  const account = await getRuntime().engine.run(accounts.update, { id, ...changes, actor: actorOf(principal) });
  return json({ account });
});
