/** The account page's sections from the people-and-keys part: edit, API keys, members. Operator pages only. */
import { ActionForm } from "@/components/action-form";
import { Time } from "@/components/time";
import type { Account } from "@/lib/accounts/repo";
import * as keys from "@/lib/keys/scripts";
import * as people from "@/lib/people/scripts";
import { getRuntime } from "@/lib/runtime";
import { createKey, inviteMember, revokeKey, setMemberDisabled, updateAccount } from "@/app/app/accounts/[id]/actions";
import { Table } from "@/components/ui/table";

const input = "mt-1 rounded-md border border-stone-300 px-3 py-1.5";

export function EditAccountSection({ account }: { account: Account }) {
  return (
    <section aria-labelledby="edit-heading">
      <h2 id="edit-heading" className="mb-2 text-lg font-semibold">
        Edit
      </h2>
      <ActionForm action={updateAccount} submit="Save" className="flex flex-wrap items-end gap-3 rounded-lg border border-stone-200 bg-white p-4">
        <input type="hidden" name="accountId" value={account.id} />
        <label className="flex flex-col text-sm">
          Name
          <input name="name" required maxLength={100} defaultValue={account.name} className={input} />
        </label>
        <label className="flex flex-col text-sm">
          Kinde customer id (blank: not connected)
          <input name="kindeCustomerId" maxLength={100} defaultValue={account.kindeCustomerId ?? ""} placeholder="customer_…" className={`${input} font-mono`} />
        </label>
        <label className="flex flex-col text-sm">
          Cycle anchor (blank: calendar months)
          <input
            name="cycleAnchor"
            type="date"
            defaultValue={account.cycleAnchorMs === null ? "" : new Date(account.cycleAnchorMs).toISOString().slice(0, 10)}
            className={input}
          />
        </label>
      </ActionForm>
      <p className="mt-1 text-xs text-stone-500">The cycle anchor falls on the 1st to the 28th and cannot move once the account has usage.</p>
    </section>
  );
}

export async function ApiKeysSection({ accountId }: { accountId: string }) {
  const list = await getRuntime().engine.run(keys.list, { accountId });
  return (
    <section aria-labelledby="keys-heading">
      <h2 id="keys-heading" className="mb-2 text-lg font-semibold">
        API keys
      </h2>
      <ActionForm action={createKey} submit="Create key" className="flex flex-wrap items-end gap-3 rounded-lg border border-stone-200 bg-white p-4">
        <input type="hidden" name="accountId" value={accountId} />
        <label className="flex flex-col text-sm">
          Requests a minute
          <input name="ratePerMinute" type="number" min={1} max={100000} step={1} required defaultValue={keys.DEFAULT_RATE_PER_MINUTE} className={input} />
        </label>
      </ActionForm>
      <Table className="mt-3 w-full max-w-5xl" testId="keys" columns={["Key", "Created", "Last used", "Rate", "State", ""]} empty={list.length === 0 ? "No keys." : null}>
          {list.map((k) => (
            <tr key={k.id} className="border-b border-stone-200">
              <td className="py-2 font-mono">
                {k.prefix}…{k.last4}
              </td>
              <td>
                <Time ms={k.createdAtMs} />
              </td>
              <td>
                <Time ms={k.lastUsedAtMs} />
              </td>
              <td>{k.ratePerMinute}/min</td>
              <td>{k.revokedAtMs === null ? "live" : "revoked"}</td>
              <td>
                {k.revokedAtMs === null ? (
                  <ActionForm action={revokeKey} submit="Revoke" danger className="flex items-center gap-2">
                    <input type="hidden" name="accountId" value={accountId} />
                    <input type="hidden" name="keyId" value={k.id} />
                  </ActionForm>
                ) : null}
              </td>
            </tr>
          ))}
      </Table>
    </section>
  );
}

export async function MembersSection({ accountId }: { accountId: string }) {
  const { engine } = getRuntime();
  const [members, invites] = await Promise.all([engine.run(people.listMembers, { accountId }), engine.run(people.listOpenInvites, { accountId })]);
  const open = invites;
  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading" className="mb-2 text-lg font-semibold">
        Members
      </h2>
      <p className="mb-2 text-sm text-stone-600">People who sign in to see this account only: its budget and usage, jobs, links and billing events.</p>
      <ActionForm action={inviteMember} submit="Invite member" className="flex flex-wrap items-end gap-3 rounded-lg border border-stone-200 bg-white p-4">
        <input type="hidden" name="accountId" value={accountId} />
        <label className="flex flex-col text-sm">
          Email
          <input name="email" type="email" required maxLength={254} className={input} />
        </label>
      </ActionForm>
      <ul className="mt-3 space-y-1 text-sm" data-testid="members">
        {members.map((m) => (
          <li key={m.id} className="flex items-center gap-3">
            <span className="font-medium">{m.name}</span>
            <span className="font-mono text-xs">{m.email}</span>
            {m.disabledAtMs !== null ? <span className="text-red-700">disabled</span> : null}
            <ActionForm action={setMemberDisabled} submit={m.disabledAtMs === null ? "Disable" : "Enable"} danger={m.disabledAtMs === null} className="flex items-center gap-2">
              <input type="hidden" name="accountId" value={accountId} />
              <input type="hidden" name="userId" value={m.id} />
              <input type="hidden" name="disabled" value={m.disabledAtMs === null ? "true" : "false"} />
            </ActionForm>
          </li>
        ))}
        {open.map((i) => (
          <li key={i.id} className="text-stone-500">
            invited <span className="font-mono text-xs">{i.email}</span> by {i.invitedBy}, open until <Time ms={i.expiresAtMs} />
          </li>
        ))}
        {members.length === 0 && open.length === 0 ? <li className="text-stone-500">No members yet.</li> : null}
      </ul>
    </section>
  );
}
