import { z } from "zod";
import { actingAccount, authenticate } from "@/lib/http/auth";
import { json, route } from "@/lib/http/api";
import * as inbox from "@/lib/inbox/scripts";
import { INBOX_STATUSES } from "@/lib/inbox/repo";
import { getRuntime } from "@/lib/runtime";
import { parseInput, queryInt } from "@/lib/validation";

export const dynamic = "force-dynamic";

const query = z.object({
  accountId: z.string().optional(),
  status: z.enum(INBOX_STATUSES).optional(),
  // Plain digits only ("0x10" or "1e3" is refused by name, not read as a number).
  limit: z.preprocess((v) => (typeof v === "string" ? queryInt(v) : v), z.number().int().min(1).max(200)).default(50),
});

/** Billing events: an account key sees its own account's; the operator sees all, or one account's with ?accountId=. */
export const GET = route(async (request: Request) => {
  const principal = await authenticate(request);
  const url = new URL(request.url);
  const q = parseInput(query, Object.fromEntries(url.searchParams), "query");
  const { engine } = getRuntime();
  if (principal.kind === "account" || q.accountId !== undefined) {
    const accountId = actingAccount(principal, q.accountId ?? null);
    const { events } = await engine.run(inbox.listForAccount, { accountId, limit: q.limit });
    return json({ events: q.status ? events.filter((e) => e.status === q.status) : events });
  }
  return json(await engine.run(inbox.list, { limit: q.limit, ...(q.status ? { status: q.status } : {}) }));
});
