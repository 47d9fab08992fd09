import { beforeEach, describe, expect, test } from "vitest";
import * as accounts from "../../lib/accounts/scripts";
import { AppError } from "../../lib/errors";
import type { Engine } from "../../lib/engine/types";
import { engines, useEngine } from "./engines";

describe.each(engines)("accounts on %s", (_name, make) => {
  const current = useEngine(make);
  let engine: Engine;
  beforeEach(async () => {
    engine = current();
  });

  test("a created account reads back by id and by Kinde customer id", async () => {
    const created = await engine.run(accounts.create, { name: "Acme", kindeCustomerId: "customer_0195ac80" });
    expect(created.id).toMatch(/^acct_[0-9a-z]{20}$/);
    expect(created).toMatchObject({ name: "Acme", plan: "free", kindeCustomerId: "customer_0195ac80", billingStatus: "ok" });

    expect(await engine.run(accounts.get, { id: created.id })).toEqual(created);
    expect(await engine.run(accounts.getByKindeCustomerId, { kindeCustomerId: "customer_0195ac80" })).toEqual(created);
  });

  test("an unknown id reads as null, not as an error", async () => {
    expect(await engine.run(accounts.get, { id: "acct_00000000000000000000" })).toBeNull();
    expect(await engine.run(accounts.getByKindeCustomerId, { kindeCustomerId: "customer_nobody" })).toBeNull();
  });

  test("a Kinde customer id belongs to one account only, and the refused create writes nothing", async () => {
    await engine.run(accounts.create, { name: "First", kindeCustomerId: "customer_dup" });
    const refused = engine.run(accounts.create, { name: "Second", kindeCustomerId: "customer_dup" });
    await expect(refused).rejects.toBeInstanceOf(AppError);
    await expect(refused).rejects.toMatchObject({ code: "conflict" });
    const { accounts: all } = await engine.run(accounts.list, { limit: 10 });
    expect(all.map((a) => a.name)).toEqual(["First"]);
  });

  test("bad input is refused with a message naming the field, and nothing is written", async () => {
    const refused = engine.run(accounts.create, { name: "" });
    await expect(refused).rejects.toMatchObject({ code: "invalid_input" });
    await expect(refused).rejects.toThrow(/name/);
    await expect(engine.run(accounts.create, { name: "x", extra: 1 } as never)).rejects.toMatchObject({ code: "invalid_input" });
    const { accounts: all } = await engine.run(accounts.list, { limit: 10 });
    expect(all).toHaveLength(0);
  });

  test("listing pages through every account exactly once", async () => {
    const made = new Set<string>();
    for (let i = 0; i < 7; i++) made.add((await engine.run(accounts.create, { name: `A${i}` })).id);
    const seen: string[] = [];
    let afterId: string | undefined;
    for (;;) {
      const page = await engine.run(accounts.list, { limit: 3, afterId });
      seen.push(...page.accounts.map((a) => a.id));
      if (!page.nextAfterId) break;
      afterId = page.nextAfterId;
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(made);
    expect([...seen].sort()).toEqual(seen);
  });
});
