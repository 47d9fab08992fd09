import { z } from "zod";
import { actorOf, notFound } from "@/lib/http/auth";
import { json, readJson, requireOperator, requireSameOrigin, route } from "@/lib/http/api";
import * as meter from "@/lib/meter/scripts";
import { getRuntime } from "@/lib/runtime";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

const body = z.strictObject({
  kindeCustomerId: z.string().nullable().optional(),
  agreementId: z.string().nullable().optional(),
  /** The agreement start, which anchors the account's billing cycles: an ISO time or milliseconds. */
  agreementStart: z.union([z.iso.datetime({ offset: true }), z.number().int().min(0).max(meter.AGREEMENT_START_MS_MAX)]).nullable().optional(),
});

/**
 * Operator: connects an account to its provider customer and agreement, and sets its cycle anchor (refused once it has
 * usage). Audited with the operator in the same transaction.
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  requireSameOrigin(request);
  const principal = await requireOperator(request);
  const { id } = await params;
  if (!/^acct_[0-9a-z]{20}$/.test(id)) throw notFound("account", id);
  const { agreementStart, ...rest } = parseInput(body, await readJson(request), "body");
  const agreementStartMs = agreementStart === undefined || agreementStart === null ? agreementStart : typeof agreementStart === "number" ? agreementStart : Date.parse(agreementStart);
  const connected = await getRuntime().engine.run(meter.connectAccount, { accountId: id, ...rest, agreementStartMs, actor: actorOf(principal) });
  return json({ account: connected });
});
