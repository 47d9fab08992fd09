import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import { LinkSummary } from "@/components/meter/link-summary";
import { PageHeader } from "@/components/page-header";
import { requireMemberSession } from "@/lib/http/session";
import { originOf, shortUrlOf } from "@/lib/links/http";
import { ANY_CODE_PATTERN } from "@/lib/links/rules";
import * as links from "@/lib/links/scripts";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/** One of the member's links: QR code, clicks this cycle and by day. The script is scoped to session.accountId: another account's link is a 404. */
export default async function MemberLink({ params }: { params: Promise<{ code: string }> }) {
  const { accountId } = await requireMemberSession();
  const { code } = await params;
  const stats = ANY_CODE_PATTERN.test(code) ? await getRuntime().engine.run(links.stats, { code, asAccountId: accountId }) : null;
  if (!stats) notFound();
  const shortUrl = shortUrlOf(originOf(await headers(), "http://localhost"), stats.link.code);
  return (
    <>
      <PageHeader title={`Link ${stats.link.code}`}>
        <Link className="underline" href="/account/links">
          All links
        </Link>
      </PageHeader>
      <LinkSummary stats={stats} shortUrl={shortUrl} />
    </>
  );
}
