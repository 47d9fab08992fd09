import { PageHeader } from "@/components/page-header";
import * as accounts from "@/lib/accounts/scripts";
import { getRuntime } from "@/lib/runtime";
import { CreateAccountForm } from "./create-form";
import { requireOperatorSession } from "@/lib/http/session";
import { Table } from "@/components/ui/table";

export const dynamic = "force-dynamic";

export default async function AccountsPage({ searchParams }: { searchParams: Promise<{ after?: string }> }) {
  await requireOperatorSession();
  const { after } = await searchParams;
  const page = await getRuntime().engine.run(accounts.list, { limit: 50, ...(after ? { afterId: after } : {}) });
  return (
    <>
      <PageHeader title="Accounts">The customers this app bills. Each has its own budget, ledger, links and billing events.</PageHeader>
      <CreateAccountForm />
      <Table className="mt-6 w-full max-w-5xl" columns={["Name", "Id", "Kinde customer", "Plan", "Billing", "Created"]} empty={page.accounts.length === 0 ? "No accounts yet. Create one above." : null}>
          {page.accounts.map((a) => (
            <tr key={a.id} className="border-b border-stone-200">
              <td className="py-2 font-medium">
                <a className="underline" href={`/app/accounts/${a.id}`}>
                  {a.name}
                </a>
              </td>
              <td className="font-mono text-xs">{a.id}</td>
              <td className="font-mono text-xs">{a.kindeCustomerId ?? "—"}</td>
              <td>{a.plan}</td>
              <td>{a.billingStatus}</td>
              <td>{new Date(a.createdAtMs).toISOString().replace("T", " ").slice(0, 19)} UTC</td>
            </tr>
          ))}
      </Table>
      {page.nextAfterId ? (
        <a className="mt-4 inline-block underline" href={`/app/accounts?after=${page.nextAfterId}`}>
          Next page
        </a>
      ) : null}
    </>
  );
}
