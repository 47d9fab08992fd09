import { authenticate, notFound, scopeOf } from "@/lib/http/auth";
import { json, route } from "@/lib/http/api";
import { linkView, originOf } from "@/lib/links/http";
import { ANY_CODE_PATTERN } from "@/lib/links/rules";
import * as links from "@/lib/links/scripts";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/** A link with its clicks this cycle and by day (?cycle=YYYY-MM for another cycle). */
export const GET = route(async (request: Request, { params }: { params: Promise<{ code: string }> }) => {
  const principal = await authenticate(request);
  const { code } = await params;
  const cycle = new URL(request.url).searchParams.get("cycle") ?? undefined;
  const stats = ANY_CODE_PATTERN.test(code) ? await getRuntime().engine.run(links.stats, { code, cycle, asAccountId: scopeOf(principal) }) : null;
  if (!stats) throw notFound("link", code);
  const { link, ...clicks } = stats;
  return json({ link: linkView(link, originOf(request.headers, request.url)), stats: clicks });
});
