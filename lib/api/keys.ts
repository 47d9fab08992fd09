/**
 * /api/v1/accounts/:id/keys and /api/v1/accounts/:id/keys/:keyId as plain
 * handlers (re-exported by the route files, served directly by server/main.ts).
 */
import { z } from "zod";
import { actorOf, assertOwns, authenticate, notFound } from "../http/auth";
import { json, readJson, requireOperator, route } from "../http/api";
import * as keys from "../keys/scripts";
import { generateApiKey } from "../keys/token";
import { getRuntime } from "../runtime";
import { parseInput } from "../validation";

type Context = { params: Promise<{ id: string }> };

const ACCOUNT_ID = /^acct_[0-9a-z]{20}$/;
const createKeyBody = z.strictObject({ ratePerMinute: keys.ratePerMinute.optional() });

/** An account's keys by prefix and last four, with created and last-used times; never a key or its hash. */
export const listKeys = route(async (request: Request, { params }: Context) => {
  const principal = await authenticate(request);
  const { id } = await params;
  assertOwns(principal, id, "account", id);
  if (!ACCOUNT_ID.test(id)) throw notFound("account", id);
  return json({ keys: await getRuntime().engine.run(keys.list, { accountId: id }) });
});

/** Operator: a new key for the account. The key is in this answer only; the server keeps its hash. */
export const createKey = route(async (request: Request, { params }: Context) => {
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

/** Operator: revoke a key. It is refused from the next request on; revoking twice answers the same. */
export const revokeKey = route(async (request: Request, { params }: { params: Promise<{ id: string; keyId: string }> }) => {
  const principal = await requireOperator(request);
  const { id, keyId } = await params;
  if (!ACCOUNT_ID.test(id) || !/^key_[0-9a-z]{20}$/.test(keyId)) throw notFound("key", keyId);
  const apiKey = await getRuntime().engine.run(keys.revoke, { accountId: id, keyId, actor: actorOf(principal) });
  return json({ apiKey });
});
