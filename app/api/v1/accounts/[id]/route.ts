import * as accounts from "@/lib/accounts/scripts";
import { assertOwns, authenticate, notFound } from "@/lib/http/auth";
import { json, route } from "@/lib/http/api";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/** The account itself: its own key or the operator. */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const principal = await authenticate(request);
  const { id } = await params;
  assertOwns(principal, id, "account", id);
  const account = /^acct_[0-9a-z]{20}$/.test(id) ? await getRuntime().engine.run(accounts.get, { id }) : null;
  if (!account) throw notFound("account", id);
  return json({ account });
});
