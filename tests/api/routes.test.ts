/**
 * One set of handlers: every route in lib/api/routes.ts (the routes the
 * production server answers directly) is a route file under app/ that
 * re-exports exactly the table's handlers, so Next.js (`npm run dev`) and the
 * production server's direct path can never answer differently. Route files
 * that are not in the table (operator tools, the stand-in's admin API) are
 * served by Next.js in production too.
 */
import { describe, expect, test } from "vitest";
import { apiRoutes } from "../../lib/api/routes";

const files = import.meta.glob("../../app/**/route.ts");
const fileOf = (routePath: string) => `../../app${routePath}/route.ts`;

describe("the direct route table", () => {
  const paths = [...new Set(apiRoutes.map((r) => r.path))].sort();

  test("has the hot routes: the gate's, the short-link redirect (GET and HEAD) and the webhook intake", () => {
    for (const path of ["/api/v1/jobs", "/api/v1/jobs/[id]/charge", "/api/v1/jobs/[id]/extend", "/api/v1/jobs/[id]/settle", "/api/v1/accounts/[id]/budget"]) expect(paths).toContain(path);
    const mounted = apiRoutes.map((r) => `${r.method} ${r.path}`);
    for (const entry of ["GET /r/[code]", "HEAD /r/[code]", "POST /api/webhooks/kinde", "GET /api/health", "GET /api/ping"]) expect(mounted).toContain(entry);
  });

  test.each(paths)("%s is a route file exporting the table's handlers, no more, no fewer", async (path) => {
    const loader = files[fileOf(path)];
    expect(loader, `app${path}/route.ts is missing`).toBeDefined();
    const mod = (await loader!()) as Record<string, unknown>;
    const methods = Object.keys(mod).filter((k) => /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/.test(k)).sort();
    const expected = apiRoutes.filter((r) => r.path === path);
    expect(methods).toEqual(expected.map((r) => r.method).sort());
    for (const route of expected) expect(mod[route.method]).toBe(route.handler);
  });
});
