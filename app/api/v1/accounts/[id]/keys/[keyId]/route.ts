import { actorOf, notFound } from "@/lib/http/auth";
import { json, requireOperator, route } from "@/lib/http/api";
import * as keys from "@/lib/keys/scripts";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/** Operator: revoke a key. It is refused from the next request on; revoking twice answers the same. */
export const DELETE = route(async (request: Request, { params }: { params: Promise<{ id: string; keyId: string }> }) => {
  const principal = await requireOperator(request);
  const { id, keyId } = await params;
  if (!/^acct_[0-9a-z]{20}$/.test(id) || !/^key_[0-9a-z]{20}$/.test(keyId)) throw notFound("key", keyId);
  const apiKey = await getRuntime().engine.run(keys.revoke, { accountId: id, keyId, actor: actorOf(principal) });
  return json({ apiKey });
});
