/**
 * Operator actions that are one transaction script write their audit row in
 * that script's transaction, naming the actor — on both engines. And a
 * scoped replay (a member's or a key's) of another account's event is the
 * same not_found as a missing one, and writes nothing, not even an audit row.
 * (Actions that are orchestrations — reconcile, report, Lab, Engine Room,
 * fault switches, signed webhooks — are audited right after the run:
 * tests/api/audit-actions.test.ts.)
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import * as accounts from "../../lib/accounts/scripts";
import * as auditScripts from "../../lib/audit/scripts";
import type { Actor } from "../../lib/audit/scripts";
import * as inbox from "../../lib/inbox/scripts";
import { runReporter } from "../../lib/meter/reporter";
import * as meter from "../../lib/meter/scripts";
import * as standin from "../../lib/standin/scripts";
import * as usage from "../../lib/usage/scripts";
import { worlds, type MeterWorld } from "./meter-world";

const OPERATOR: Actor = { kind: "operator", id: "usr_00000000000000000001", label: "ana@example.com" };
const MEMBER: Actor = { kind: "member", id: "usr_00000000000000000002", label: "mia@a.test" };
const ANCHOR = Date.parse("2026-10-20T15:29:00Z");

describe.each(worlds)("audited in the action's own transaction on %s", (_name, make) => {
  let w: MeterWorld;
  let a: string;
  let b: string;
  beforeEach(async () => {
    w = await make(Date.parse("2026-10-25T12:00:00Z"));
    a = await w.account(ANCHOR);
    b = await w.account(ANCHOR);
  });
  afterEach(async () => {
    await w.cleanup();
  });

  const entries = async () => (await w.engine.run(auditScripts.list, { limit: 50 })).entries;
  const newest = async () => (await entries())[0];

  async function storedEvent(accountId: string, name: string): Promise<string> {
    await w.engine.run(accounts.update, { id: accountId, kindeCustomerId: `customer_${name}`, actor: OPERATOR });
    const stored = await w.engine.run(inbox.receive, {
      source: "kinde",
      dedupeKey: `wh_${name}`,
      webhookId: `wh_${name}`,
      eventId: `event_${name}`,
      type: "customer.payment_succeeded",
      payload: JSON.stringify({ type: "customer.payment_succeeded", data: { customer_id: `customer_${name}` } }),
      occurredAtMs: Date.now(),
      customerId: `customer_${name}`,
      sizeBytes: 100,
    });
    return stored.inboxEventId;
  }

  test("a replay names who asked; a member's replay of another account's event is not_found and writes nothing", async () => {
    const own = await storedEvent(a, "a");
    const other = await storedEvent(b, "b");
    await w.engine.run(inbox.replay, { inboxEventId: own, asAccountId: a, actor: MEMBER });
    expect(await newest()).toMatchObject({ action: "inbox.replay", target: own, accountId: a, actorKind: "member", actorLabel: "mia@a.test", actorId: MEMBER.id });

    const before = await entries();
    const replaysBefore = (await w.engine.run(inbox.get, { inboxEventId: other }))!.replays;
    await expect(w.engine.run(inbox.replay, { inboxEventId: other, asAccountId: a, actor: MEMBER })).rejects.toMatchObject({ code: "not_found", message: `No inbox event ${other}.` });
    await expect(w.engine.run(inbox.replay, { inboxEventId: "evt_0000000000000000000z", asAccountId: a, actor: MEMBER })).rejects.toMatchObject({
      code: "not_found",
      message: "No inbox event evt_0000000000000000000z.",
    });
    expect(await entries()).toEqual(before);
    expect((await w.engine.run(inbox.get, { inboxEventId: other }))!.replays).toBe(replaysBefore);
    // Reads are scoped the same way: another account's event is not there for A.
    expect(await w.engine.run(inbox.get, { inboxEventId: other, asAccountId: a })).toBeNull();

    await w.engine.run(inbox.replay, { inboxEventId: other, asAccountId: null, actor: OPERATOR });
    expect(await newest()).toMatchObject({ action: "inbox.replay", target: other, accountId: b, actorKind: "operator", actorLabel: "ana@example.com" });
  });

  test("replaying many names the operator, the filter and how many", async () => {
    await storedEvent(a, "a");
    const { inboxEventIds } = await w.engine.run(inbox.replayMany, { filter: { kind: "window", fromMs: 0, toMs: Date.now() + 1 }, actor: OPERATOR });
    expect(inboxEventIds).toHaveLength(1);
    const row = await newest();
    expect(row).toMatchObject({ action: "inbox.replay_many", target: "window", actorKind: "operator", actorLabel: "ana@example.com" });
    expect(JSON.parse(row!.detail)).toMatchObject({ requeued: 1, more: false });
  });

  test("a correction, a connect and a resolved review each name the operator", async () => {
    await w.engine.run(usage.record, { key: "row-1", accountId: a, feature: "clicks", cycle: "2026-10", units: 1, source: "click" });
    await w.engine.run(usage.correct, { entryKey: "row-1", reason: "a bot", actor: OPERATOR });
    expect(await newest()).toMatchObject({ action: "usage.correct", target: "row-1", accountId: a, actorLabel: "ana@example.com" });

    await w.engine.run(meter.connectAccount, { accountId: b, agreementId: "agreement_b", actor: OPERATOR });
    const connected = await newest();
    expect(connected).toMatchObject({ action: "accounts.connect", target: b, accountId: b, actorKind: "operator" });
    expect(JSON.parse(connected!.detail)).toMatchObject({ before: { agreementId: null }, after: { agreementId: "agreement_b" } });

    // A closed cycle that was never reported goes to the review list; resolving it is an operator action.
    await w.engine.run(usage.record, { key: "row-2", accountId: b, feature: "clicks", cycle: "2026-10", units: 1, source: "click" });
    w.setNow(Date.parse("2026-11-21T00:00:00Z"));
    await runReporter(w.ctx);
    await w.engine.run(meter.resolveReview, { accountId: b, feature: "clicks", cycle: "2026-10", resolution: "invoiced by hand", actor: OPERATOR });
    expect(await newest()).toMatchObject({ action: "meter.resolve_review", target: "clicks:2026-10", accountId: b, actorLabel: "ana@example.com" });
  });

  test("the stand-in's plan and limits: set together, one row; bad input writes nothing", async () => {
    const configured = await w.engine.run(standin.configure, { accountId: a, planCode: "pro", limits: { tokens: 250, clicks: null }, actor: OPERATOR });
    expect(configured.changed).toEqual(["plan", "clicks", "tokens"]);
    const row = await newest();
    expect(row).toMatchObject({ action: "standin.configure", target: a, accountId: a, actorLabel: "ana@example.com" });
    expect(JSON.parse(row!.detail)).toMatchObject({ before: { plan: "free", tokens: "plan", clicks: "plan" }, after: { plan: "pro", tokens: 250, clicks: null } });
    expect(await w.engine.run(standin.limits, { accountId: a })).toMatchObject({
      planCode: "pro",
      features: [
        { featureCode: "clicks", effectiveLimitMax: null },
        { featureCode: "tokens", effectiveLimitMax: 250 },
      ],
    });

    // The same again changes nothing and writes no row; "plan" puts a feature back on the plan's limit.
    const rows = (await entries()).length;
    expect((await w.engine.run(standin.configure, { accountId: a, planCode: "pro", limits: { tokens: 250 }, actor: OPERATOR })).changed).toEqual([]);
    expect((await entries()).length).toBe(rows);
    expect((await w.engine.run(standin.configure, { accountId: a, planCode: "pro", limits: { tokens: "plan" }, actor: OPERATOR })).changed).toEqual(["tokens"]);
    expect((await w.engine.run(standin.limits, { accountId: a })).features.find((f) => f.featureCode === "tokens")?.effectiveLimitMax).toBe(1_000_000);

    const before = await entries();
    await expect(w.engine.run(standin.configure, { accountId: a, planCode: "gold", limits: {}, actor: OPERATOR })).rejects.toMatchObject({ code: "invalid_input" });
    await expect(w.engine.run(standin.configure, { accountId: a, planCode: "free", limits: { tokens: -1 }, actor: OPERATOR })).rejects.toMatchObject({ code: "invalid_input" });
    expect(await entries()).toEqual(before);
    expect((await w.engine.run(standin.limits, { accountId: a })).planCode).toBe("pro");

    await w.engine.run(standin.setLimit, { accountId: b, featureCode: "tokens", limitMax: 10, actor: OPERATOR });
    expect(await newest()).toMatchObject({ action: "standin.limit", target: b, actorLabel: "ana@example.com" });
    await w.engine.run(standin.changePlan, { accountId: b, planCode: "pro", actor: OPERATOR });
    expect(await newest()).toMatchObject({ action: "standin.plan", target: b, actorLabel: "ana@example.com" });
  });
});
