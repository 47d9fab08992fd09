import { describe, expect, test } from "vitest";
import { CODE_ALPHABET, codeProblem, destinationProblem, generateCode, GENERATED_CODE_LENGTH, utcDay } from "../../lib/links/rules";

describe("destinations", () => {
  test.each<[string, string | null]>([
    ["https://example.com", null],
    ["http://example.com/a/b?c=d#e", null],
    ["https://example.com/r/abc", null], // another site's /r/ path is fine
    ["https://xn--bcher-kva.example/ß", null],
    ["javascript:alert(1)", "http:// or https://"],
    ["data:text/html,<script>alert(1)</script>", "http:// or https://"],
    ["JAVASCRIPT:alert(1)", "http:// or https://"],
    ["ftp://example.com/file", "http:// or https://"],
    ["mailto:a@example.com", "http:// or https://"],
    ["/relative/path", "absolute URL"],
    ["example.com", "absolute URL"],
    ["https://user:pass@example.com/", "user name or password"],
    [" https://example.com", "no spaces"],
    ["https://exa mple.com", "no spaces"],
    ["https://example.com/\n", "no spaces"],
    [`https://example.com/${"a".repeat(2030)}`, "at most 2048"],
    ["https://tollbooth.example/r/abc123", "own short links"],
    ["http://localhost:3000/r/abc123", "own short links"],
    ["http://127.0.0.1:40123/r/x", "own short links"],
    ["https://tollbooth.example/app/links", null], // the app itself, but not a short link
  ])("%s → %s", (destination, problem) => {
    const result = destinationProblem(destination, ["tollbooth.example"]);
    if (problem === null) expect(result).toBeNull();
    else expect(result).toContain(problem);
  });
});

describe("codes", () => {
  test.each<[string, boolean]>([
    ["abc", true],
    ["launch-2026", true],
    ["A_b-9", true],
    ["ab", false],
    ["-abc", false],
    ["_abc", false],
    ["has space", false],
    ["emoji😀", false],
    ["a".repeat(32), true],
    ["a".repeat(33), false],
    ["../etc", false],
  ])("custom code %j allowed: %s", (code, ok) => {
    expect(codeProblem(code) === null).toBe(ok);
  });

  test("generated codes are 7 characters of the unambiguous alphabet and pass the custom rule", () => {
    let seed = 1;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const code = generateCode(random);
      expect(code).toHaveLength(GENERATED_CODE_LENGTH);
      expect([...code].every((c) => CODE_ALPHABET.includes(c))).toBe(true);
      expect(codeProblem(code)).toBeNull();
      seen.add(code);
    }
    expect(seen.size).toBe(2000);
    expect(CODE_ALPHABET).not.toMatch(/[0O1lI]/);
  });

  test("a click's day is its UTC day", () => {
    expect(utcDay(Date.parse("2026-10-20T23:59:59.999Z"))).toBe("2026-10-20");
    expect(utcDay(Date.parse("2026-10-21T00:00:00Z"))).toBe("2026-10-21");
  });
});
