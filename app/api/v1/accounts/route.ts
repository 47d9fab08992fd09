import * as accounts from "@/lib/accounts/scripts";
import { actorOf } from "@/lib/http/auth";
import { json, readJson, requireOperator, route } from "@/lib/http/api";
import { generateApiKey } from "@/lib/keys/token";
import { getRuntime } from "@/lib/runtime";
import { parseInput, queryInt } from "@/lib/validation";

export const dynamic = "force-dynamic";

/** Operator: opens an account and returns its id and first API key (shown this once). */
export const POST = route(async (request: Request) => {
  const principal = await requireOperator(request);
  const args = parseInput(accounts.createAccountArgs, await readJson(request), "body");
  const key = generateApiKey();
  const { account, keyId } = await getRuntime().engine.run(accounts.open, {
    ...args,
    key: { hash: key.hash, prefix: key.prefix, last4: key.last4 },
    actor: actorOf(principal),
  });
  return json({ account, apiKey: { id: keyId, key: key.token } }, 201);
});

/** Operator: one page of accounts. */
export const GET = route(async (request: Request) => {
  await requireOperator(request);
  const url = new URL(request.url);
  const query = parseInput(
    accounts.list.args,
    { limit: queryInt(url.searchParams.get("limit")) ?? 50, ...(url.searchParams.has("after") ? { afterId: url.searchParams.get("after") } : {}) },
    "query",
  );
  const page = await getRuntime().engine.run(accounts.list, query);
  return json(page);
});
