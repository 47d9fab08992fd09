import { describe, expect, test } from "vitest";
import * as accounts from "../../lib/accounts/scripts";
import * as audit from "../../lib/audit/scripts";
import { sha256Hex } from "../../lib/auth/tokens";
import * as people from "../../lib/people/scripts";
import * as usage from "../../lib/usage/scripts";
import { engines, useEngine } from "./engines";

// A well-formed scrypt hash; the scripts never check passwords, only store hashes.
const HASH = "scrypt$32768$8$1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U";
const actor = { kind: "operator_token", id: null, label: "operator token" } as const;
const later = () => Date.now() + 60 * 60 * 1000;
let n = 0;
const session = () => ({ tokenHash: sha256Hex(`session-${n++}-${Math.random()}`), expiresAtMs: later() });

describe.each(engines)("people and audit on %s", (_name, make) => {
  const current = useEngine(make);
  const engine = { run: ((script, args) => current().run(script, args)) as ReturnType<typeof current>["run"] };

  test("the first-run setup makes one operator and works once; the session finds them; sign-out ends it", async () => {
    expect(await engine.run(people.setupStatus, {})).toEqual({ done: false });
    const s = session();
    const first = await engine.run(people.setupFirstOperator, { email: " Ana@Example.com ", name: "Ana", passwordHash: HASH, kindeUserId: null, session: s });
    expect(first.user).toMatchObject({ email: "ana@example.com", role: "operator", accountId: null });
    expect(JSON.stringify(first)).not.toContain(HASH);
    expect(await engine.run(people.setupStatus, {})).toEqual({ done: true });
    await expect(
      engine.run(people.setupFirstOperator, { email: "eve@example.com", name: "Eve", passwordHash: HASH, kindeUserId: null, session: session() }),
    ).rejects.toMatchObject({ code: "conflict" });
    expect((await engine.run(people.listOperators, {})).map((u) => u.email)).toEqual(["ana@example.com"]);

    expect(await engine.run(people.sessionByToken, { tokenHash: s.tokenHash })).toMatchObject({ user: { id: first.user.id } });
    expect(await engine.run(people.endSession, { tokenHash: s.tokenHash })).toEqual({ ended: true });
    expect(await engine.run(people.sessionByToken, { tokenHash: s.tokenHash })).toBeNull();
    expect(await engine.run(people.endSession, { tokenHash: s.tokenHash })).toEqual({ ended: true });
    const entries = (await engine.run(audit.list, { limit: 10 })).entries;
    expect(entries.map((e) => e.action)).toEqual(["people.setup"]);
  });

  test("an invite link makes a member of one account, once; a used or unknown link is the same nothing", async () => {
    const account = await engine.run(accounts.create, { name: "Acme" });
    const token = sha256Hex("invite-token");
    const invite = await engine.run(people.invite, { role: "member", accountId: account.id, email: "bo@acme.test", tokenHash: token, actor });
    expect(invite).toMatchObject({ role: "member", accountId: account.id, usedAtMs: null });
    expect(JSON.stringify(invite)).not.toContain(token);
    expect(await engine.run(people.inviteByToken, { tokenHash: token })).toMatchObject({ id: invite.id });

    const accepted = await engine.run(people.acceptInvite, { tokenHash: token, name: "Bo", passwordHash: HASH, kindeUserId: null, session: session() });
    expect(accepted.user).toMatchObject({ email: "bo@acme.test", role: "member", accountId: account.id });
    expect(await engine.run(people.inviteByToken, { tokenHash: token })).toBeNull();
    await expect(engine.run(people.acceptInvite, { tokenHash: token, name: "Bo2", passwordHash: HASH, kindeUserId: null, session: session() })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(
      engine.run(people.acceptInvite, { tokenHash: sha256Hex("never"), name: "X", passwordHash: HASH, kindeUserId: null, session: session() }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect((await engine.run(people.listMembers, { accountId: account.id })).map((u) => u.email)).toEqual(["bo@acme.test"]);

    // The same email cannot be invited again while it signs in here.
    await expect(engine.run(people.invite, { role: "member", accountId: account.id, email: "BO@acme.test", tokenHash: sha256Hex("t2"), actor })).rejects.toMatchObject({
      code: "conflict",
    });
    // A member invite must name an account; an operator invite must not.
    await expect(engine.run(people.invite, { role: "member", accountId: null, email: "x@acme.test", tokenHash: sha256Hex("t3"), actor })).rejects.toMatchObject({
      code: "invalid_input",
    });
  });

  test("disabling a person ends their sessions at once; enabling lets new ones work", async () => {
    const account = await engine.run(accounts.create, { name: "Acme" });
    const token = sha256Hex("t");
    await engine.run(people.invite, { role: "member", accountId: account.id, email: "cy@acme.test", tokenHash: token, actor });
    const s = session();
    const { user } = await engine.run(people.acceptInvite, { tokenHash: token, name: "Cy", passwordHash: HASH, kindeUserId: null, session: s });
    await engine.run(people.setDisabled, { userId: user.id, disabled: true, actor });
    expect(await engine.run(people.sessionByToken, { tokenHash: s.tokenHash })).toBeNull();
    await expect(engine.run(people.signIn, { userId: user.id, session: session() })).rejects.toMatchObject({ code: "unauthorized" });
    await engine.run(people.setDisabled, { userId: user.id, disabled: false, actor });
    const again = session();
    await engine.run(people.signIn, { userId: user.id, session: again });
    expect(await engine.run(people.sessionByToken, { tokenHash: again.tokenHash })).not.toBeNull();
  });

  test("an account edit is audited with before and after; the anchor is refused once the account has usage", async () => {
    const account = await engine.run(accounts.create, { name: "Acme", kindeCustomerId: "customer_a" });
    await engine.run(accounts.create, { name: "Other", kindeCustomerId: "customer_b" });
    const anchor = Date.UTC(2026, 0, 15);
    const edited = await engine.run(accounts.update, { id: account.id, name: "Acme Ltd", cycleAnchorMs: anchor, actor });
    expect(edited).toMatchObject({ name: "Acme Ltd", cycleAnchorMs: anchor, kindeCustomerId: "customer_a" });
    await expect(engine.run(accounts.update, { id: account.id, kindeCustomerId: "customer_b", actor })).rejects.toMatchObject({ code: "conflict" });
    await expect(engine.run(accounts.update, { id: account.id, cycleAnchorMs: Date.UTC(2026, 0, 30), actor })).rejects.toMatchObject({
      code: "invalid_input",
      message: expect.stringMatching(/cycleAnchorMs: .*1st to the 28th/),
    });
    await engine.run(usage.record, { key: "u1", accountId: account.id, feature: "clicks", cycle: "2026-01", units: 1, source: "click" });
    await expect(engine.run(accounts.update, { id: account.id, cycleAnchorMs: null, actor })).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringMatching(/already has usage/),
    });
    // Other fields still change once usage exists.
    expect(await engine.run(accounts.update, { id: account.id, kindeCustomerId: null, actor })).toMatchObject({ kindeCustomerId: null });

    const log = await engine.run(audit.list, { limit: 10, accountId: account.id });
    expect(log.entries.map((e) => e.action)).toEqual(["accounts.update", "accounts.update"]);
    expect(JSON.parse(log.entries[1]!.detail)).toEqual({ before: { name: "Acme", cycleAnchorMs: null }, after: { name: "Acme Ltd", cycleAnchorMs: anchor } });
    expect(log.entries[0]!.actorLabel).toBe("operator token");
  });

  test("the audit log pages newest first by a cursor, per account or overall", async () => {
    const a = await engine.run(accounts.create, { name: "A" });
    for (let i = 0; i < 5; i++) await engine.run(audit.record, { actor, action: "test.step", target: `t${i}`, accountId: i % 2 === 0 ? a.id : null, detail: { i } });
    const first = await engine.run(audit.list, { limit: 2 });
    expect(first.entries.map((e) => e.target)).toEqual(["t4", "t3"]);
    const second = await engine.run(audit.list, { limit: 2, before: first.nextBefore! });
    expect(second.entries.map((e) => e.target)).toEqual(["t2", "t1"]);
    const third = await engine.run(audit.list, { limit: 2, before: second.nextBefore! });
    expect(third.entries.map((e) => e.target)).toEqual(["t0"]);
    expect(third.nextBefore).toBeNull();
    expect((await engine.run(audit.list, { limit: 10, accountId: a.id })).entries.map((e) => e.target)).toEqual(["t4", "t2", "t0"]);
  });
});
