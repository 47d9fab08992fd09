/**
 * Isolation, generated from the route list: every exported method of every
 * app/api/**\/route.ts needs an entry in tests/api/routes.ts, and each entry
 * is checked with account A's credentials (its API key and its member's
 * session) against account B's resources:
 *  - account routes: A's own resource answers 2xx; B's answers exactly as a
 *    resource that does not exist (404), with nothing of B in it;
 *  - operator routes: A's key and A's member get 403, nothing of B;
 *  - public routes: listed with the reason they are public.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startApi, type ApiHarness } from "./harness";
import { cookieHeader, SAME_ORIGIN } from "./people";
import { buildWorld, discoverRoutes, routes, type World } from "./routes";

const discovered = await discoverRoutes();

let api: ApiHarness;
let world: World;
beforeAll(async () => {
  api = await startApi();
  world = await buildWorld(api);
});
afterAll(async () => {
  await api.close();
});

type Handler = (typeof discovered)[number]["handler"];

function credentials(kind: "key" | "member", method: string) {
  if (kind === "key") return { token: world.a.key };
  return { token: null, headers: { ...cookieHeader(world.a.memberCookie), ...(method === "GET" ? {} : SAME_ORIGIN) } };
}

async function send(handler: Handler, method: string, call: { path: string; params?: Record<string, string>; body?: unknown }, who: "key" | "member") {
  return api.call(handler, { method, path: call.path, params: call.params ?? {}, ...(call.body !== undefined ? { body: call.body } : method === "GET" || method === "DELETE" ? {} : { body: {} }), ...credentials(who, method) });
}

/** B's identifiers must never come back to A (beyond the ids A itself sent, which a 404 for any id echoes). */
function withoutEcho(body: unknown, sent: { path: string; params?: Record<string, string>; body?: unknown } | string, replacement: string): string {
  const call = typeof sent === "string" ? { path: sent } : sent;
  const url = new URL(call.path, "http://x");
  const echoes = [
    ...url.pathname.split("/").filter((p) => p.length > 8),
    ...Object.values(call.params ?? {}),
    ...[...url.searchParams.values()],
    ...Object.values((call.body ?? {}) as Record<string, unknown>).filter((v): v is string => typeof v === "string" && /^[a-z]+_[0-9a-z]{20}$/.test(v)),
  ];
  let text = JSON.stringify(body);
  for (const part of echoes) text = text.split(part).join(replacement);
  return text;
}

describe("every route is in the table", () => {
  test("each exported method of each app/api route.ts has an entry, and each entry has a route", () => {
    const keys = discovered.map((r) => r.key);
    const missing = keys.filter((k) => !(k in routes));
    expect(missing, `Routes without an entry in tests/api/routes.ts: ${missing.join(", ")}`).toEqual([]);
    const stale = Object.keys(routes).filter((k) => !keys.includes(k));
    expect(stale, `Entries in tests/api/routes.ts without a route: ${stale.join(", ")}`).toEqual([]);
  });
});

describe.each(discovered.map((r) => [r.key, r] as const))("%s", (key, route) => {
  const entry = routes[key];
  const method = key.split(" ")[0]!;
  if (!entry) {
    test("has an entry in tests/api/routes.ts", () => {
      expect.fail(`${key} has no entry in tests/api/routes.ts`);
    });
    return;
  }
  if (entry.access === "public") {
    test(`is public: ${entry.why}`, () => {
      expect(entry.why.length).toBeGreaterThan(5);
    });
    return;
  }
  if (entry.access === "operator") {
    test.each(["key", "member"] as const)("account A's %s gets 403 and nothing of account B", async (who) => {
      const target = entry.fuzz.target(world);
      const call = { ...target, path: target.path.split(world.a.accountId).join(world.b.accountId), params: Object.fromEntries(Object.entries(target.params ?? {}).map(([k, v]) => [k, v === world.a.accountId ? world.b.accountId : v])) };
      const answer = await send(route.handler, method, { ...call, body: entry.fuzz.body?.valid(world) }, who);
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ error: { code: "forbidden" } });
      expect(withoutEcho(answer.body, call.path, "X")).not.toContain(world.b.accountId);
    });
    return;
  }
  test.each(["key", "member"] as const)("account A's %s reaches its own, and B's answers exactly like one that does not exist", async (who) => {
    const own = await send(route.handler, method, entry.call(world, "own"), who);
    expect(own.status, JSON.stringify(own.body)).toBeGreaterThanOrEqual(200);
    expect(own.status).toBeLessThan(300);

    const otherCall = entry.call(world, "other");
    const missingCall = entry.call(world, "missing");
    const other = await send(route.handler, method, otherCall, who);
    const missing = await send(route.handler, method, missingCall, who);
    expect(other.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(withoutEcho(other.body, otherCall, "ID")).toBe(withoutEcho(missing.body, missingCall, "ID"));
    for (const secret of [world.b.accountId, world.b.keyId, ...Object.entries(world.extra).filter(([k]) => k.startsWith("b.")).map(([, v]) => v)]) {
      expect(withoutEcho(other.body, otherCall, "ID")).not.toContain(secret);
    }
  });
});
