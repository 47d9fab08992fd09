import { describe, expect, test } from "vitest";
import { contentSecurityPolicy, newNonce } from "../../lib/http/csp";

const directives = (csp: string) => new Map(csp.split("; ").map((d) => [d.split(" ")[0]!, d.split(" ").slice(1)]));

describe("content security policy", () => {
  test("production: scripts only by nonce, never eval or inline; no framing; forms post only here", () => {
    const csp = directives(contentSecurityPolicy({ nonce: "abc", development: false }));
    expect(csp.get("script-src")).toEqual(["'self'", "'nonce-abc'", "'strict-dynamic'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("form-action")).toEqual(["'self'"]);
    expect(csp.get("base-uri")).toEqual(["'self'"]);
  });

  test("development allows eval for React's tooling and websockets for hot reload, and nothing else more", () => {
    const csp = directives(contentSecurityPolicy({ nonce: "abc", development: true, formActionOrigins: ["https://acme.kinde.com"] }));
    expect(csp.get("script-src")).toContain("'unsafe-eval'");
    expect(csp.get("script-src")).not.toContain("'unsafe-inline'");
    expect(csp.get("form-action")).toEqual(["'self'", "https://acme.kinde.com"]);
  });

  test("each nonce is fresh: 16 random bytes", () => {
    const a = newNonce();
    expect(Buffer.from(a, "base64")).toHaveLength(16);
    expect(newNonce()).not.toBe(a);
  });
});
