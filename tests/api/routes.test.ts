/**
 * One set of handlers: every app/api/v1 route file re-exports exactly the
 * handlers of lib/api/routes.ts, so Next.js and the production server's
 * direct path can never answer differently.
 */
import { describe, expect, test } from "vitest";
import { apiRoutes } from "../../lib/api/routes";

const files = import.meta.glob("../../app/api/v1/**/route.ts");

describe("the /api/v1 route table", () => {
  const fromFiles = Object.keys(files).map((file) => ({ file, path: file.replace("../../app", "").replace(/\/route\.ts$/, "") }));

  test("lists every route file and nothing else", () => {
    expect([...new Set(apiRoutes.map((r) => r.path))].sort()).toEqual(fromFiles.map((f) => f.path).sort());
  });

  test.each(fromFiles.map((f) => [f.path, f.file] as const))("%s exports the table's handlers, no more, no fewer", async (path, file) => {
    const mod = (await files[file]!()) as Record<string, unknown>;
    const methods = Object.keys(mod).filter((k) => /^(GET|POST|PUT|PATCH|DELETE)$/.test(k)).sort();
    const expected = apiRoutes.filter((r) => r.path === path);
    expect(methods).toEqual(expected.map((r) => r.method).sort());
    for (const route of expected) expect(mod[route.method]).toBe(route.handler);
  });
});
