import { z } from "zod";
import { actorOf, assertOwns, authenticate, notFound } from "@/lib/http/auth";
import { json, readJson, requireOperator, route } from "@/lib/http/api";
import * as keys from "@/lib/keys/scripts";
import { generateApiKey } from "@/lib/keys/token";
import { getRuntime } from "@/lib/runtime";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

const ACCOUNT_ID = /^acct_[0-9a-z]{20}$/;
const createKeyBody = z.strictObject({ ratePerMinute: keys.ratePerMinute.optional() });

/** An account's keys by prefix and last four, with created and last-used times; never a key or its hash. */
export const GET = route(async (request: Request, { params }: Context) => {
  const principal = await authenticate(request);
  const { id } = await params;
  assertOwns(principal, id, "account", id);
  if (!ACCOUNT_ID.test(id)) throw notFound("account", id);
  return json({ keys: await getRuntime().engine.run(keys.list, { accountId: id }) });
});

/** Operator: a new key for the account. The key is in this answer only; the server keeps its hash. */
export const POST = route(async (request: Request, { params }: Context) => {
  const principal = await requireOperator(request);
  const { id } = await params;
  const body = parseInput(createKeyBody, await readJson(request), "body");
  if (!ACCOUNT_ID.test(id)) throw notFound("account", id);
  const made = generateApiKey();
  const summary = await getRuntime().engine.run(keys.create, {
    accountId: id,
    hash: made.hash,
    prefix: made.prefix,
    last4: made.last4,
    ...body,
    actor: actorOf(principal),
  });
  return json({ apiKey: { ...summary, key: made.token } }, 201);
});
