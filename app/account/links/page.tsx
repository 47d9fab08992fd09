import Link from "next/link";
import { units } from "@/components/meter/format";
import { QrDownloads } from "@/components/meter/link-summary";
import { PageHeader } from "@/components/page-header";
import { Table } from "@/components/ui/table";
import { requireMemberSession } from "@/lib/http/session";
import * as links from "@/lib/links/scripts";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/** A member's short links with their clicks this cycle; each opens its page with the QR code. Read only for session.accountId. */
export default async function MemberLinks() {
  const { accountId } = await requireMemberSession();
  const { cycle, links: own } = await getRuntime().engine.run(links.listWithClicks, { accountId, limit: links.ACCOUNT_LINKS_MAX });
  return (
    <>
      <PageHeader title="Links">Your account&apos;s short links and their clicks in this cycle ({cycle}).</PageHeader>
      <Table columns={["Code", "Destination", { label: "Clicks this cycle", right: true }, "QR code"]} empty={own.length === 0 ? "No links yet." : null} testId="member-links">
        {own.map(({ link, clicks }) => {
          return (
            <tr key={link.code} className="border-b border-stone-200" data-code={link.code}>
              <td className="py-2 font-mono">
                <Link className="underline" href={`/account/links/${link.code}`}>
                  {link.code}
                </Link>
              </td>
              <td className="max-w-md break-all">{link.destination}</td>
              <td className="text-right font-mono" data-cell="clicks">
                {units(clicks)}
              </td>
              <td className="space-x-3 text-xs">
                <Link className="underline" href={`/account/links/${link.code}`}>
                  show
                </Link>
                <QrDownloads code={link.code} />
              </td>
            </tr>
          );
        })}
      </Table>
    </>
  );
}
