/**
 * The redirect's two write orders. Embedded: the click commits before the
 * 302, so no 302 goes out for a click that was not stored. Convex: the 302
 * goes first and the click is written after the response, retried with the
 * same key, so a retry never counts it twice.
 */
import { afterEach, describe, expect, test } from "vitest";
import type { Engine } from "../../lib/engine/types";
import { createRedirectHandler } from "../../lib/links/redirect";
import * as links from "../../lib/links/scripts";
import type { ArgsOf, Script } from "../../lib/scripts/define";
import * as usage from "../../lib/usage/scripts";
import { worlds, type MeterWorld } from "./meter-world";

/** An engine whose next `n` click writes fail (after or before they commit). */
function flaky(engine: Engine, failures: { before: number; after: number }): Engine {
  return {
    kind: engine.kind,
    info: () => engine.info(),
    close: () => engine.close(),
    async run<S extends Script>(script: S, args: ArgsOf<S>) {
      if (script.name === links.click.name && failures.before > 0) {
        failures.before--;
        throw new Error("connection reset before the write");
      }
      const result = await engine.run(script, args);
      if (script.name === links.click.name && failures.after > 0) {
        failures.after--;
        throw new Error("connection reset after the write committed");
      }
      return result;
    },
  } as Engine;
}

describe.each(worlds)("the redirect on %s", (name, make) => {
  let w: MeterWorld;
  afterEach(async () => {
    await w.cleanup();
  });

  test(name === "sqlite" ? "the click is committed before the 302; a failed write gets no 302" : "the 302 goes first; the click follows with the same key on every retry", async () => {
    w = await make();
    const accountId = await w.account(null);
    const link = await w.engine.run(links.create, { accountId, destination: "https://example.com/x" });
    const deferred: (() => Promise<void>)[] = [];
    const waits: number[] = [];
    const failures = { before: 1, after: 1 };
    const handler = createRedirectHandler({
      engine: () => flaky(w.engine, failures),
      defer: (task) => deferred.push(task),
      wait: async (ms) => void waits.push(ms),
      log: () => {},
    });
    const cycle = new Date(w.now()).toISOString().slice(0, 7);
    const total = async () => (await w.engine.run(usage.total, { accountId, feature: "clicks", cycle })).units;

    if (name === "sqlite") {
      await expect(handler(new Request(`http://x/r/${link.code}`))).rejects.toThrow(/before the write/);
      expect(await total()).toBe(0);
      const ok = await handler(new Request(`http://x/r/${link.code}`)).catch((e: Error) => e);
      // The write committed but its answer was lost: no 302 was sent for it, and it is stored once.
      expect(ok).toBeInstanceOf(Error);
      expect(await total()).toBe(1);
      const response = await handler(new Request(`http://x/r/${link.code}`));
      expect(response.status).toBe(302);
      expect(await total()).toBe(2);
      expect(deferred).toEqual([]);
      return;
    }

    const response = await handler(new Request(`http://x/r/${link.code}`));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("https://example.com/x");
    // Nothing is written until after the response.
    expect(await total()).toBe(0);
    expect(deferred).toHaveLength(1);
    await deferred[0]!();
    // Failed before, then committed but answered with an error, then a retry that finds the key: one click.
    expect(waits).toEqual([100, 500]);
    expect(await total()).toBe(1);
    const { entries } = await w.engine.run(usage.recent, { accountId, feature: "clicks", cycle });
    expect(entries.map((e) => e.key)).toEqual([response.headers.get("x-click-key")]);
  });
});
