import { AppError } from "@/lib/errors";
import { authenticate, notFound, scopeOf } from "@/lib/http/auth";
import { route } from "@/lib/http/api";
import { originOf, shortUrlOf } from "@/lib/links/http";
import { qrPng, qrSvg } from "@/lib/links/qr";
import { ANY_CODE_PATTERN } from "@/lib/links/rules";
import * as links from "@/lib/links/scripts";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/** The link's QR code: ?format=svg (default) or png; &download=1 saves it as a file. */
export const GET = route(async (request: Request, { params }: { params: Promise<{ code: string }> }) => {
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
