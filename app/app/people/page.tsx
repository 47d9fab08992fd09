import { ActionForm } from "@/components/action-form";
import { PageHeader } from "@/components/page-header";
import { Time } from "@/components/time";
import { requireOperatorSession } from "@/lib/http/session";
import * as people from "@/lib/people/scripts";
import { getRuntime } from "@/lib/runtime";
import { inviteOperator, setOperatorDisabled } from "./actions";
import { Table } from "@/components/ui/table";

export const dynamic = "force-dynamic";

/** Operators: who runs this dashboard, and invites for more. */
export default async function PeoplePage() {
  const me = await requireOperatorSession();
  const { engine, config } = getRuntime();
  const [operators, invites] = await Promise.all([engine.run(people.listOperators, {}), engine.run(people.listOpenInvites, { accountId: null })]);
  return (
    <>
      <PageHeader title="Operators">
        People who run this dashboard. They sign in with {config.operatorSignIn === "kinde" ? "Kinde" : "email and password"}. Account members are invited from each account&apos;s page.
      </PageHeader>
      <ActionForm action={inviteOperator} submit="Invite operator" className="flex max-w-3xl flex-wrap items-end gap-3 rounded-lg border border-stone-200 bg-white p-4">
        <label className="flex flex-col text-sm">
          Email
          <input name="email" type="email" required maxLength={254} className="mt-1 rounded-md border border-stone-300 px-3 py-1.5" />
        </label>
      </ActionForm>
      <Table className="mt-6 w-full max-w-4xl" columns={["Name", "Email", "Since", "State", ""]}>
          {operators.map((o) => (
            <tr key={o.id} className="border-b border-stone-200">
              <td className="py-2">{o.name}</td>
              <td className="font-mono text-xs">{o.email}</td>
              <td>
                <Time ms={o.createdAtMs} />
              </td>
              <td>{o.disabledAtMs === null ? "active" : "disabled"}</td>
              <td>
                {o.id === me.userId ? (
                  <span className="text-stone-500">you</span>
                ) : (
                  <ActionForm action={setOperatorDisabled} submit={o.disabledAtMs === null ? "Disable" : "Enable"} danger={o.disabledAtMs === null} className="flex gap-2">
                    <input type="hidden" name="userId" value={o.id} />
                    <input type="hidden" name="disabled" value={o.disabledAtMs === null ? "true" : "false"} />
                  </ActionForm>
                )}
              </td>
            </tr>
          ))}
      </Table>
      <h2 className="mt-8 mb-2 text-lg font-semibold">Open invites</h2>
      <ul className="text-sm">
        {invites.map((i) => (
            <li key={i.id}>
              <span className="font-mono text-xs">{i.email}</span> by {i.invitedBy}, open until <Time ms={i.expiresAtMs} />
            </li>
          ))}
      </ul>
    </>
  );
}
