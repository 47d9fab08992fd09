import { PageHeader } from "@/components/page-header";
import { Time } from "@/components/time";
import * as auditScripts from "@/lib/audit/scripts";
import { requireOperatorSession } from "@/lib/http/session";
import { getRuntime } from "@/lib/runtime";
import { Table } from "@/components/ui/table";

export const dynamic = "force-dynamic";

/** Who did what, when: operator actions (and members' replays), newest first. */
export default async function AuditPage({ searchParams }: { searchParams: Promise<{ before?: string; accountId?: string }> }) {
  await requireOperatorSession();
  const { before, accountId } = await searchParams;
  const args = {
    limit: 100,
    ...(before && /^\d{15}-\d{6}-aud_[0-9a-z]{20}$/.test(before) ? { before } : {}),
    ...(accountId && /^acct_[0-9a-z]{20}$/.test(accountId) ? { accountId } : {}),
  };
  const page = await getRuntime().engine.run(auditScripts.list, args);
  return (
    <>
      <PageHeader title="Audit log">
        Every operator action — key creation and revocation, account edits, invites, replays, fault switches, reconciles, corrections — with who did it and when.
        {args.accountId ? (
          <>
            {" "}
            Showing account <span className="font-mono">{args.accountId}</span> only. <a className="underline" href="/app/audit">Show all</a>.
          </>
        ) : null}
      </PageHeader>
      <Table className="w-full max-w-6xl" testId="audit" columns={["When", "Who", "Action", "Target", "Account", "Detail"]} empty={page.entries.length === 0 ? "Nothing yet." : null}>
          {page.entries.map((e) => (
            <tr key={e.id} className="border-b border-stone-200 align-top">
              <td className="py-2 whitespace-nowrap">
                <Time ms={e.atMs} />
              </td>
              <td>
                {e.actorLabel} <span className="text-xs text-stone-500">({e.actorKind.replace("_", " ")})</span>
              </td>
              <td className="font-mono">{e.action}</td>
              <td className="font-mono text-xs">{e.target}</td>
              <td className="font-mono text-xs">
                {e.accountId ? (
                  <a className="underline" href={`/app/accounts/${e.accountId}`}>
                    {e.accountId}
                  </a>
                ) : (
                  "—"
                )}
              </td>
              <td className="max-w-md break-all font-mono text-xs text-stone-600">{e.detail === "{}" ? "" : e.detail}</td>
            </tr>
          ))}
      </Table>
      {page.nextBefore ? (
        <a className="mt-4 inline-block underline" href={`/app/audit?before=${page.nextBefore}${args.accountId ? `&accountId=${args.accountId}` : ""}`}>
          Older
        </a>
      ) : null}
    </>
  );
}
