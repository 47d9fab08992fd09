/**
 * The short-link API (/api/v1/links…): create, list, one link with its stats, its QR code. Plain
 * `(Request, context) => Promise<Response>` handlers that app/api/v1/links/**\/route.ts re-exports for Next.js and
 * the production server calls directly (lib/api/routes.ts), like the gate's. An account's key sees its own links
 * only; another account's link is the same 404 as a missing one.
 */
import { z } from "zod";
import { AppError } from "../errors";
import { actingAccount, authenticate, notFound, scopeOf } from "../http/auth";
import { json, readJson, requireSameOrigin, route } from "../http/api";
import { hostOf, linkView, originOf, shortUrlOf } from "../links/http";
import { qrPng, qrSvg } from "../links/qr";
import { ANY_CODE_PATTERN } from "../links/rules";
import * as links from "../links/scripts";
import { getRuntime } from "../runtime";
import { parseInput, queryInt } from "../validation";

type CodeParams = { params: Promise<{ code: string }> };

const createBody = z.strictObject({
  destination: z.string(),
  code: z.string().optional(),
  /** The operator names the account; an account key acts for its own. */
  accountId: z.string().optional(),
});

/** Creates a short link: {destination, code?} → {code, shortUrl, qr}. */
export const createLink = route(async (request: Request) => {
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
export const listLinks = route(async (request: Request) => {
  const principal = await authenticate(request);
  const url = new URL(request.url);
  const requested = url.searchParams.get("accountId");
  const accountId = principal.kind === "account" ? actingAccount(principal, requested) : (requested ?? undefined);
  const args = parseInput(links.list.args, { accountId, limit: queryInt(url.searchParams.get("limit")) ?? 100 }, "query");
  const { links: found } = await getRuntime().engine.run(links.list, args);
  const origin = originOf(request.headers, request.url);
  return json({ links: found.map((l) => linkView(l, origin)) });
});

/** A link with its clicks this cycle and by day (?cycle=YYYY-MM for another cycle). */
export const getLink = route(async (request: Request, { params }: CodeParams) => {
  const principal = await authenticate(request);
  const { code } = await params;
  const cycle = new URL(request.url).searchParams.get("cycle") ?? undefined;
  const stats = ANY_CODE_PATTERN.test(code) ? await getRuntime().engine.run(links.stats, { code, cycle, asAccountId: scopeOf(principal) }) : null;
  if (!stats) throw notFound("link", code);
  const { link, ...clicks } = stats;
  return json({ link: linkView(link, originOf(request.headers, request.url)), stats: clicks });
});

/** The link's QR code: ?format=svg (default) or png; &download=1 saves it as a file. */
export const linkQr = route(async (request: Request, { params }: CodeParams) => {
  const principal = await authenticate(request);
  const { code } = await params;
  const link = ANY_CODE_PATTERN.test(code) ? await getRuntime().engine.run(links.get, { code, asAccountId: scopeOf(principal) }) : null;
  if (!link) throw notFound("link", code);
  const url = new URL(request.url);
  const format = url.searchParams.get("format") ?? "svg";
  if (format !== "svg" && format !== "png") throw new AppError("invalid_input", "format: svg or png");
  const shortUrl = shortUrlOf(originOf(request.headers, request.url), link.code);
  const headers: Record<string, string> = { "cache-control": "private, max-age=300" };
  if (url.searchParams.get("download") === "1") headers["content-disposition"] = `attachment; filename="qr-${link.code}.${format}"`;
  if (format === "png") return new Response(new Uint8Array(await qrPng(shortUrl)), { headers: { ...headers, "content-type": "image/png" } });
  return new Response(await qrSvg(shortUrl), { headers: { ...headers, "content-type": "image/svg+xml; charset=utf-8" } });
});
