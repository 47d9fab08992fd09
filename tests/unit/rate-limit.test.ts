import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { RateLimiter, take } from "../../lib/auth/rate-limit";

describe("token bucket", () => {
  test.each([
    // [rate a minute, requests at t=0, allowed]
    [1, 1, 1],
    [1, 2, 1],
    [60, 60, 60],
    [60, 61, 60],
  ])("rate %i/min, %i requests at once: %i allowed (a full bucket is one minute's worth)", (rate, requests, allowed) => {
    let bucket;
    let ok = 0;
    for (let i = 0; i < requests; i++) {
      const decision = take(bucket, rate, 0);
      bucket = decision.bucket;
      if (decision.allowed) ok++;
    }
    expect(ok).toBe(allowed);
  });

  test("a refused request says when to retry, and that is when it is allowed again", () => {
    let { bucket } = take(undefined, 60, 0);
    for (let i = 0; i < 59; i++) bucket = take(bucket, 60, 0).bucket;
    const refused = take(bucket, 60, 0);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(1);
    expect(take(refused.bucket, 60, 999).allowed).toBe(false);
    expect(take(refused.bucket, 60, 1000).allowed).toBe(true);
  });

  test("over any window, a key gets at most its burst plus the refill (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 600 }), fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 300 }), (rate, gaps) => {
        let bucket;
        let nowMs = 0;
        let allowed = 0;
        for (const gap of gaps) {
          nowMs += gap;
          const decision = take(bucket, rate, nowMs);
          bucket = decision.bucket;
          if (decision.allowed) allowed++;
          else expect(decision.retryAfterSeconds).toBeGreaterThanOrEqual(1);
        }
        expect(allowed).toBeLessThanOrEqual(rate + Math.floor((nowMs * rate) / 60_000) + 1);
      }),
    );
  });

  test("the limiter keeps one bucket per key and forgets the least recently used past its bound", () => {
    const limiter = new RateLimiter(2);
    expect(limiter.take("a", 1, 0).allowed).toBe(true);
    expect(limiter.take("a", 1, 0).allowed).toBe(false);
    expect(limiter.take("b", 1, 0).allowed).toBe(true);
    limiter.take("c", 1, 0); // "a" is dropped: it starts full again
    expect(limiter.size()).toBe(2);
    expect(limiter.take("a", 1, 0).allowed).toBe(true);
  });
});
