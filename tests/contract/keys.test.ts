import { beforeEach, describe, expect, test } from "vitest";
import * as accounts from "../../lib/accounts/scripts";
import type { Engine } from "../../lib/engine/types";
import * as keys from "../../lib/keys/scripts";
import { generateApiKey } from "../../lib/keys/token";
import { engines, useEngine } from "./engines";

const actor = { kind: "operator_token", id: null, label: "operator token" } as const;

describe.each(engines)("API keys on %s", (_name, make) => {
  const current = useEngine(make);
  let engine: Engine;
  beforeEach(async () => {
    engine = current();
  });

  test("an account opens with its first key in one transaction; the key authenticates to that account only", async () => {
    const key = generateApiKey();
    const { account, keyId } = await engine.run(accounts.open, { name: "Keyed", key: { hash: key.hash, prefix: key.prefix, last4: key.last4 } });
    expect(await engine.run(keys.authenticate, { hash: key.hash })).toMatchObject({ keyId, accountId: account.id, ratePerMinute: keys.DEFAULT_RATE_PER_MINUTE, lastUsedAtMs: null });
    expect(await engine.run(keys.authenticate, { hash: generateApiKey().hash })).toBeNull();
    const listed = await engine.run(keys.list, { accountId: account.id });
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: keyId, prefix: key.prefix, last4: key.last4, revokedAtMs: null });
    expect(JSON.stringify(listed)).not.toContain(key.hash);
  });

  test("a refused open writes neither the account nor the key", async () => {
    await engine.run(accounts.create, { name: "Holder", kindeCustomerId: "customer_x" });
    const key = generateApiKey();
    await expect(
      engine.run(accounts.open, { name: "Dup", kindeCustomerId: "customer_x", key: { hash: key.hash, prefix: key.prefix, last4: key.last4 } }),
    ).rejects.toMatchObject({ code: "conflict" });
    expect(await engine.run(keys.authenticate, { hash: key.hash })).toBeNull();
    expect((await engine.run(accounts.list, { limit: 10 })).accounts).toHaveLength(1);
  });

  test("a revoked key is refused at once; revoking twice answers the same; another account's key is not found", async () => {
    const a = await engine.run(accounts.create, { name: "A" });
    const b = await engine.run(accounts.create, { name: "B" });
    const key = generateApiKey();
    const created = await engine.run(keys.create, { accountId: a.id, hash: key.hash, prefix: key.prefix, last4: key.last4, actor });
    await expect(engine.run(keys.revoke, { accountId: b.id, keyId: created.id, actor })).rejects.toMatchObject({ code: "not_found" });
    expect(await engine.run(keys.authenticate, { hash: key.hash })).not.toBeNull();
    const revoked = await engine.run(keys.revoke, { accountId: a.id, keyId: created.id, actor });
    expect(revoked.revokedAtMs).not.toBeNull();
    expect(await engine.run(keys.authenticate, { hash: key.hash })).toBeNull();
    expect(await engine.run(keys.revoke, { accountId: a.id, keyId: created.id, actor })).toEqual(revoked);
  });

  test("last-used is written at most once a minute: a second touch within the minute writes nothing", async () => {
    const key = generateApiKey();
    const { keyId } = await engine.run(accounts.open, { name: "Used", key: { hash: key.hash, prefix: key.prefix, last4: key.last4 } });
    expect(await engine.run(keys.touch, { keyId })).toEqual({ written: true });
    const first = (await engine.run(keys.authenticate, { hash: key.hash }))!.lastUsedAtMs;
    expect(first).not.toBeNull();
    expect(await engine.run(keys.touch, { keyId })).toEqual({ written: false });
    expect((await engine.run(keys.authenticate, { hash: key.hash }))!.lastUsedAtMs).toBe(first);
  });
});
