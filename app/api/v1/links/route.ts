import { z } from "zod";
import { actingAccount, authenticate } from "@/lib/http/auth";
import { json, readJson, requireSameOrigin, route } from "@/lib/http/api";
import { hostOf, linkView, originOf } from "@/lib/links/http";
import { qrSvg } from "@/lib/links/qr";
import * as links from "@/lib/links/scripts";
import { getRuntime } from "@/lib/runtime";
import { parseInput, queryInt } from "@/lib/validation";

export const dynamic = "force-dynamic";

const createBody = z.strictObject({
  destination: z.string(),
  code: z.string().optional(),
  /** The operator names the account; an account key acts for its own. */
  accountId: z.string().optional(),
});

/** Creates a short link: {destination, code?} → {code, shortUrl, qr}. */
export const POST = route(async (request: Request) => {
  requireSameOrigin(request);
  const principal = await authenticate(request);
  const body = parseInput(createBody, await readJson(request), "body");
  const accountId = actingAccount(principal, body.accountId ?? null);
  const link = await getRuntime().engine.run(links.create, {
    accountId,
    destination: body.destination,
    code: body.code,
    selfHosts: hostOf(request.headers),
  });
  const view = linkView(link, originOf(request.headers, request.url));
  return json({ link: view, code: link.code, shortUrl: view.shortUrl, qr: { ...view.qr, svg: await qrSvg(view.shortUrl) } }, 201);
});

/** An account's links (its own key), or any account's (the operator, with ?accountId= or all). */
export const GET = route(async (request: Request) => {
  const principal = await authenticate(request);
  const url = new URL(request.url);
  const requested = url.searchParams.get("accountId");
  const accountId = principal.kind === "account" ? actingAccount(principal, requested) : (requested ?? undefined);
  const args = parseInput(links.list.args, { accountId, limit: queryInt(url.searchParams.get("limit")) ?? 100 }, "query");
  const { links: found } = await getRuntime().engine.run(links.list, args);
  const origin = originOf(request.headers, request.url);
  return json({ links: found.map((l) => linkView(l, origin)) });
});
