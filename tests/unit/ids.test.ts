/** lib/ids.ts: typed ids, time first (index locality, creation order), then 50 random bits. */
import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { hasPrefix, makeId } from "../../lib/ids";

const random = (n: number) => new Uint8Array(randomBytes(n));

describe("makeId", () => {
  test("is <prefix>_ and 20 Crockford base32 characters", () => {
    const id = makeId("job", random);
    expect(id).toMatch(/^job_[0-9a-hjkmnp-tv-z]{20}$/);
    expect(hasPrefix(id, "job")).toBe(true);
    expect(hasPrefix(id, "acct")).toBe(false);
  });

  test("the first 10 characters are the creation time: ids made later sort after, whatever their random part", () => {
    const zeros = (n: number) => new Uint8Array(n);
    const ones = (n: number) => new Uint8Array(n).fill(31);
    const times = [0, 1, 31, 32, 1_700_000_000_000, 1_700_000_000_001, 1_800_000_000_000, 2 ** 50 - 1];
    for (let i = 1; i < times.length; i++) {
      const earlier = makeId("job", ones, times[i - 1]);
      const later = makeId("job", zeros, times[i]);
      expect(earlier < later, `${earlier} < ${later}`).toBe(true);
    }
    expect(makeId("job", zeros, 0)).toBe("job_00000000000000000000");
    expect(makeId("job", zeros, 32).slice(4, 14)).toBe("0000000010");
  });

  test("ids made in the same millisecond differ by their random part", () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => makeId("evt", random, 1_750_000_000_000)));
    expect(ids.size).toBe(10_000);
  });
});
