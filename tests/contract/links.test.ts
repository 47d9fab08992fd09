/**
 * Short links and clicks, on both engines: codes, destinations, idempotent
 * click keys, the cycle a click lands in, the per-day tally, and corrections
 * written into the corrected row's cycle.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import * as links from "../../lib/links/scripts";
import * as usage from "../../lib/usage/scripts";
import { worlds, type MeterWorld } from "./meter-world";

const key = (n: number) => `click_00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

describe.each(worlds)("short links on %s", (_name, make) => {
  let w: MeterWorld;
  let accountId: string;
  beforeEach(async () => {
    w = await make();
    accountId = await w.account(Date.parse("2026-10-20T15:29:00Z"));
  });
  afterEach(async () => {
    await w.cleanup();
  });

  test("a generated code is short and random; a custom code is validated and unique", async () => {
    const a = await w.engine.run(links.create, { accountId, destination: "https://example.com/a" });
    const b = await w.engine.run(links.create, { accountId, destination: "https://example.com/b" });
    expect(a.code).toMatch(/^[2-9a-zA-Z]{7}$/);
    expect(a.code).not.toBe(b.code);
    expect(a.id).toMatch(/^link_/);

    const custom = await w.engine.run(links.create, { accountId, destination: "https://example.com/launch", code: "launch-2026" });
    expect(custom.code).toBe("launch-2026");
    await expect(w.engine.run(links.create, { accountId, destination: "https://example.com/x", code: "launch-2026" })).rejects.toMatchObject({ code: "conflict" });
    await expect(w.engine.run(links.create, { accountId, destination: "https://example.com/x", code: "no way" })).rejects.toMatchObject({ code: "invalid_input" });
  });

  test("a destination must be an absolute http(s) URL and never the app's own short link; nothing is written otherwise", async () => {
    for (const destination of ["javascript:alert(1)", "data:text/html,hi", "/local", "https://u:p@example.com", "https://app.example/r/abc"]) {
      await expect(w.engine.run(links.create, { accountId, destination, selfHosts: ["app.example"] })).rejects.toMatchObject({ code: "invalid_input" });
    }
    expect((await w.engine.run(links.list, { accountId })).links).toEqual([]);
  });

  test("a link of a missing account is refused", async () => {
    await expect(w.engine.run(links.create, { accountId: "acct_00000000000000000000", destination: "https://example.com" })).rejects.toMatchObject({ code: "not_found" });
  });

  test("a click key counts once however often it is retried; an unknown code records nothing", async () => {
    const link = await w.engine.run(links.create, { accountId, destination: "https://example.com/a" });
    expect(await w.engine.run(links.click, { code: link.code, key: key(1) })).toEqual({ destination: "https://example.com/a", recorded: true });
    expect(await w.engine.run(links.click, { code: link.code, key: key(1) })).toEqual({ destination: "https://example.com/a", recorded: false });
    expect(await w.engine.run(links.click, { code: "nosuchcode", key: key(2) })).toBeNull();
    expect(await w.engine.run(usage.total, { accountId, feature: "clicks", cycle: "2026-10" })).toEqual({ units: 1, marked: true });
    expect((await w.engine.run(links.stats, { code: link.code }))!.clicks).toBe(1);
  });

  test("a click belongs to the cycle of the account's anchor, and stats count clicks by UTC day", async () => {
    const link = await w.engine.run(links.create, { accountId, destination: "https://example.com/a" });
    // The article's example: anchor 20 October 15:29; a click on 19 November is in 2026-10, one on 21 November in 2026-11.
    w.setNow(Date.parse("2026-11-19T10:00:00Z"));
    await w.engine.run(links.click, { code: link.code, key: key(1) });
    await w.engine.run(links.click, { code: link.code, key: key(2) });
    w.setNow(Date.parse("2026-11-20T09:00:00Z"));
    await w.engine.run(links.click, { code: link.code, key: key(3) });
    w.setNow(Date.parse("2026-11-21T00:00:00Z"));
    await w.engine.run(links.click, { code: link.code, key: key(4) });

    expect((await w.engine.run(usage.total, { accountId, feature: "clicks", cycle: "2026-10" })).units).toBe(3);
    expect((await w.engine.run(usage.total, { accountId, feature: "clicks", cycle: "2026-11" })).units).toBe(1);
    const october = (await w.engine.run(links.stats, { code: link.code, cycle: "2026-10" }))!;
    expect(october.days).toEqual([
      { day: "2026-11-19", clicks: 2 },
      { day: "2026-11-20", clicks: 1 },
    ]);
    expect(october.clicks).toBe(3);
    const current = (await w.engine.run(links.stats, { code: link.code }))!;
    expect(current).toMatchObject({ cycle: "2026-11", clicks: 1, days: [{ day: "2026-11-21", clicks: 1 }] });
    expect(new Date(current.cycleStartMs).toISOString()).toBe("2026-11-20T15:29:00.000Z");
  });

  test("a correction is a new negative row in the corrected row's cycle, with its reason; the same correction again changes nothing", async () => {
    const link = await w.engine.run(links.create, { accountId, destination: "https://example.com/a" });
    await w.engine.run(links.click, { code: link.code, key: key(1) });
    await w.engine.run(links.click, { code: link.code, key: key(2) });
    // Corrected a month later: the row still goes into the click's cycle.
    w.setNow(Date.parse("2026-12-01T00:00:00Z"));
    const first = await w.engine.run(usage.correct, { entryKey: key(1), reason: "a bot, not a person" });
    expect(first.recorded).toBe(true);
    expect(first.entry).toMatchObject({ cycle: "2026-10", units: -1, source: "correction", ref: key(1), reason: "a bot, not a person", accountId, feature: "clicks" });
    const again = await w.engine.run(usage.correct, { entryKey: key(1), reason: "a bot, not a person" });
    expect(again).toMatchObject({ recorded: false, entry: first.entry });

    expect((await w.engine.run(usage.total, { accountId, feature: "clicks", cycle: "2026-10" })).units).toBe(1);
    expect((await w.engine.run(usage.total, { accountId, feature: "clicks", cycle: "2026-11" })).units).toBe(0);
    expect((await w.engine.run(links.stats, { code: link.code, cycle: "2026-10" }))!.clicks).toBe(1);
    // The history stays readable: both rows are there, the correction newest.
    const { entries } = await w.engine.run(usage.recent, { accountId, feature: "clicks", cycle: "2026-10" });
    expect(entries.map((e) => [e.source, e.units])).toEqual([
      ["correction", -1],
      ["click", 1],
      ["click", 1],
    ]);
  });

  test("corrections are bounded: no more than the row, once per row, never of a correction, never of a missing row", async () => {
    await w.engine.run(usage.record, { key: "job-1", accountId, feature: "tokens", cycle: "2026-10", units: 500, source: "job" });
    await expect(w.engine.run(usage.correct, { entryKey: "job-1", units: -501, reason: "too much" })).rejects.toMatchObject({ code: "invalid_input" });
    const partial = await w.engine.run(usage.correct, { entryKey: "job-1", units: -120, reason: "a retried step was charged twice" });
    expect(partial.entry.units).toBe(-120);
    await expect(w.engine.run(usage.correct, { entryKey: "job-1", units: -100, reason: "again" })).rejects.toMatchObject({ code: "conflict" });
    await expect(w.engine.run(usage.correct, { entryKey: partial.entry.key, reason: "undo" })).rejects.toMatchObject({ code: "invalid_input" });
    await expect(w.engine.run(usage.correct, { entryKey: "nope", reason: "x" })).rejects.toMatchObject({ code: "not_found" });
    await expect(w.engine.run(usage.correct, { entryKey: "job-1", units: 5, reason: "x" })).rejects.toMatchObject({ code: "invalid_input" });
    expect((await w.engine.run(usage.total, { accountId, feature: "tokens", cycle: "2026-10" })).units).toBe(380);
  });
});
