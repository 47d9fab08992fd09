/** Each handler's decision, from the event and the facts, as a table: outcome, sentence, writes. */
import { describe, expect, test } from "vitest";
import type { Account } from "../../lib/accounts/repo";
import { balanceOf, grantKey, topUpUnits } from "../../lib/inbox/allowance";
import { planOfKey, readFields } from "../../lib/inbox/fields";
import { decide, HANDLED_TYPES, type HandlerFacts } from "../../lib/inbox/handlers";
import type { AllowanceGrant } from "../../lib/inbox/repo";
import { cycleOf } from "../../lib/usage/cycle";

const T = Date.UTC(2026, 9, 21, 2, 29, 23);
const account: Account = {
  id: "acct_00000000000000000001",
  name: "A",
  kindeCustomerId: "customer_1",
  plan: "free",
  planChangedAtMs: 0,
  agreementId: null,
  cycleAnchorMs: null,
  billingStatus: "ok",
  createdAtMs: 0,
};
const proKey = grantKey("pro", account.id, "2026-10");
const proGrant: AllowanceGrant = { key: proKey, accountId: account.id, period: "2026-10", plan: "pro", units: 490, reason: "", inboxEventId: null, grantedAtMs: 0 };

function facts(type: string, data: Record<string, unknown>, over: Partial<Omit<HandlerFacts, "event">> & { atMs?: number } = {}): HandlerFacts {
  const atMs = over.atMs ?? T;
  return {
    event: { id: "evt_x", type, occurredAtMs: atMs, fields: readFields({ data: { customer_id: "customer_1", ...data } }) },
    account: over.account ?? account,
    period: over.period ?? cycleOf(atMs, null),
    grants: over.grants ?? [],
    clocks: over.clocks ?? null,
  };
}
const kinds = (f: HandlerFacts) => decide(f).writes.map((w) => w.kind);

describe("plan events (plan_changed, plan_assigned, agreement_created)", () => {
  test.each(["customer.plan_changed", "customer.plan_assigned", "customer.agreement_created"])("%s: a newer change sets the plan, grants the allowance, refreshes the agreement, drops the gate's limit", (type) => {
    const d = decide(facts(type, { plan: { key: "pro" }, agreement_id: "agreement_1" }));
    expect(d).toMatchObject({ outcome: "applied", result: "plan set to pro, Pro allowance granted" });
    expect(d.writes).toEqual([
      { kind: "setPlan", plan: "pro", planChangedAtMs: T },
      expect.objectContaining({ kind: "grant", key: proKey, plan: "pro", period: "2026-10", units: 490 }),
      { kind: "setAgreement", agreementId: "agreement_1", changedAtMs: T },
      { kind: "dropCachedLimit" },
    ]);
  });

  test("the allowance already granted (by the payment) is skipped", () => {
    const d = decide(facts("customer.plan_changed", { plan: { key: "pro" } }, { grants: [proGrant] }));
    expect(d.result).toBe("plan set to pro, Pro allowance already granted");
    expect(kinds(facts("customer.plan_changed", { plan: { key: "pro" } }, { grants: [proGrant] }))).toEqual(["setPlan", "dropCachedLimit"]);
  });

  test("an older change is ignored, with the article's sentence", () => {
    const newer = { ...account, plan: "pro", planChangedAtMs: T + 1 };
    const d = decide(facts("customer.plan_changed", { plan: { key: "pro" } }, { account: newer, grants: [proGrant] }));
    expect(d).toEqual({ outcome: "ignored", result: "ignored: a newer plan change is already stored", writes: [] });
  });

  test("an older change still grants its own period's allowance (the customer was on that plan then)", () => {
    const newer = { ...account, plan: "free", planChangedAtMs: T + 1 };
    const d = decide(facts("customer.plan_changed", { plan: { key: "pro" } }, { account: newer }));
    expect(d.outcome).toBe("applied");
    expect(d.result).toBe("plan not changed (a newer plan change is already stored), Pro allowance for 2026-10 granted");
    expect(d.writes.map((w) => w.kind)).toEqual(["grant"]);
  });

  test("a tie in event time is ignored", () => {
    const d = decide(facts("customer.plan_changed", { plan: { key: "pro" } }, { account: { ...account, planChangedAtMs: T }, grants: [proGrant] }));
    expect(d.outcome).toBe("ignored");
  });

  test("a Kinde plan key is mapped; an unknown one and a missing one are ignored with the reason", () => {
    expect(decide(facts("customer.plan_changed", { plan: { key: "customer_pro_plan" } })).result).toBe("plan set to pro, Pro allowance granted");
    expect(decide(facts("customer.plan_changed", { plan: { key: "starter" } })).result).toBe('ignored: plan key "starter" is not in the plan catalog (lib/inbox/fields.ts)');
    expect(decide(facts("customer.plan_changed", {})).result).toMatch(/^ignored: the event names no plan \(looked at data\.plan\.key/);
  });

  test("to free: no grant (the free allowance is every account's)", () => {
    const d = decide(facts("customer.plan_changed", { plan: { key: "free" } }, { account: { ...account, plan: "pro", planChangedAtMs: 1 } }));
    expect(d.result).toBe("plan set to free");
    expect(d.writes.map((w) => w.kind)).toEqual(["setPlan", "dropCachedLimit"]);
  });
});

describe("customer.agreement_cancelled", () => {
  test("back to free under the time guard", () => {
    const pro = { ...account, plan: "pro", planChangedAtMs: T - 1 };
    expect(decide(facts("customer.agreement_cancelled", {}, { account: pro }))).toEqual({
      outcome: "applied",
      result: "plan set to free (agreement cancelled)",
      writes: [{ kind: "setPlan", plan: "free", planChangedAtMs: T }, { kind: "dropCachedLimit" }],
    });
  });
  test("an old cancellation after a newer upgrade is ignored", () => {
    const pro = { ...account, plan: "pro", planChangedAtMs: T + 180_000 };
    expect(decide(facts("customer.agreement_cancelled", {}, { account: pro })).result).toBe("ignored: a newer plan change is already stored");
  });
});

describe("customer.payment_succeeded", () => {
  test("grants the paid plan's allowance: the same keyed row as the plan change", () => {
    const d = decide(facts("customer.payment_succeeded", { plan: { key: "pro" } }));
    expect(d.result).toBe("Pro allowance granted");
    expect(d.writes).toContainEqual(expect.objectContaining({ kind: "grant", key: proKey }));
  });
  test("a repeated payment finds the row and writes nothing a person would see", () => {
    const d = decide(facts("customer.payment_succeeded", { plan: { key: "pro" } }, { grants: [proGrant], clocks: { accountId: account.id, billingChangedAtMs: T, agreementChangedAtMs: null } }));
    expect(d).toEqual({ outcome: "ignored", result: "ignored: the Pro allowance for 2026-10 is already granted", writes: [] });
  });
  test("without a plan key it pays for the account's plan; the free plan grants nothing more", () => {
    expect(decide(facts("customer.payment_succeeded", {}, { account: { ...account, plan: "pro" } })).result).toBe("Pro allowance granted");
    expect(decide(facts("customer.payment_succeeded", {})).result).toBe("ignored: the Free plan grants nothing beyond the free allowance");
  });
  test("sets the billing status back to ok when it is newer than the failure", () => {
    const failing = { ...account, plan: "pro", billingStatus: "payment_failed" };
    const d = decide(facts("customer.payment_succeeded", {}, { account: failing, grants: [proGrant], clocks: { accountId: account.id, billingChangedAtMs: T - 1, agreementChangedAtMs: null } }));
    expect(d.result).toBe("billing status back to ok");
    expect(d.writes).toEqual([{ kind: "setBillingStatus", status: "ok", changedAtMs: T }]);
  });
});

describe("customer.payment_failed and customer.invoice_overdue", () => {
  test.each([
    ["customer.payment_failed", "payment_failed"],
    ["customer.invoice_overdue", "invoice_overdue"],
  ])("%s records the billing status", (type, status) => {
    expect(decide(facts(type, {}))).toEqual({ outcome: "applied", result: `billing status set to ${status}`, writes: [{ kind: "setBillingStatus", status, changedAtMs: T }] });
  });
  test("an older one than the stored billing event is ignored", () => {
    expect(decide(facts("customer.payment_failed", {}, { clocks: { accountId: account.id, billingChangedAtMs: T + 5, agreementChangedAtMs: null } })).result).toBe(
      "ignored: a newer billing event is already stored",
    );
  });
});

describe("other events", () => {
  test("customer.meter_usage_updated queues a reconcile", () => {
    expect(decide(facts("customer.meter_usage_updated", {}))).toEqual({ outcome: "applied", result: "reconcile of this account's meter queued", writes: [{ kind: "queueReconcile" }] });
  });
  test("an unknown type is ignored with the reason", () => {
    expect(decide(facts("user.created", {})).result).toBe("ignored: user.created is not a billing event this app handles");
  });
  test("every documented billing type but plan_created has a handler", () => {
    expect([...HANDLED_TYPES].sort()).toEqual(
      [
        "customer.agreement_cancelled",
        "customer.agreement_created",
        "customer.invoice_overdue",
        "customer.meter_usage_updated",
        "customer.payment_failed",
        "customer.payment_succeeded",
        "customer.plan_assigned",
        "customer.plan_changed",
      ].sort(),
    );
  });
});

describe("fields and the allowance", () => {
  test("the field paths are tried in order; data is read defensively", () => {
    expect(readFields({ data: { customer: { id: "customer_9" }, plan: { code: "pro" }, customer_agreement_id: "agreement_2" } })).toEqual({
      customerId: "customer_9",
      planKey: "pro",
      agreementId: "agreement_2",
    });
    expect(readFields({ data: { customer_id: 42, plan: "pro" } })).toEqual({ customerId: null, planKey: null, agreementId: null });
    expect(readFields(null)).toEqual({ customerId: null, planKey: null, agreementId: null });
    expect(planOfKey("toString")).toBeNull();
    expect(topUpUnits("constructor")).toBeNull();
  });
  test("a Pro period holds 500: the free 10 plus a 490 top-up", () => {
    expect(topUpUnits("pro")).toBe(490);
    expect(topUpUnits("free")).toBe(0);
    expect(topUpUnits("gold")).toBeNull();
    expect(balanceOf([])).toBe(10);
    expect(balanceOf([proGrant])).toBe(500);
  });
});

describe("the agreement's own clock", () => {
  test("an older plan event still records its agreement when no newer one was recorded", () => {
    const newer = { ...account, plan: "pro", planChangedAtMs: T + 1 };
    const d = decide(facts("customer.plan_changed", { plan: { key: "pro" }, agreement_id: "agreement_old" }, { account: newer, grants: [proGrant] }));
    expect(d).toEqual({
      outcome: "applied",
      result: "plan not changed (a newer plan change is already stored), agreement agreement_old recorded",
      writes: [{ kind: "setAgreement", agreementId: "agreement_old", changedAtMs: T }],
    });
  });
  test("a newer agreement is not overwritten by an older one", () => {
    const d = decide(facts("customer.plan_changed", { plan: { key: "pro" }, agreement_id: "agreement_old" }, { grants: [proGrant], clocks: { accountId: account.id, billingChangedAtMs: null, agreementChangedAtMs: T + 1 } }));
    expect(d.writes.map((w) => w.kind)).toEqual(["setPlan", "dropCachedLimit"]);
  });
});
