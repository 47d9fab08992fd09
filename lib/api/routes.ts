/**
 * Every /api/v1 route as one table: method, path pattern, handler (the same
 * handlers app/api/v1/**\/route.ts re-exports). The production server
 * (server/main.ts) serves /api/v1 through `dispatch` without Next.js's router;
 * tests use it as an in-process `fetch`. A route added under app/api/v1 must
 * be added here too (tests/api/routes.test.ts compares the two).
 */
import { openAccount, listAccounts, getAccount } from "./accounts";
import { budget, charge, extend, getJob, reserve, settle } from "./gate";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface ApiRoute {
  method: "GET" | "POST";
  /** The app/api path, e.g. /api/v1/jobs/[id]/charge. */
  path: string;
  handler: Handler;
}

export const apiRoutes: readonly ApiRoute[] = [
  { method: "POST", path: "/api/v1/accounts", handler: openAccount as Handler },
  { method: "GET", path: "/api/v1/accounts", handler: listAccounts as Handler },
  { method: "GET", path: "/api/v1/accounts/[id]", handler: getAccount as Handler },
  { method: "GET", path: "/api/v1/accounts/[id]/budget", handler: budget as Handler },
  { method: "POST", path: "/api/v1/jobs", handler: reserve as Handler },
  { method: "GET", path: "/api/v1/jobs/[id]", handler: getJob as Handler },
  { method: "POST", path: "/api/v1/jobs/[id]/charge", handler: charge as Handler },
  { method: "POST", path: "/api/v1/jobs/[id]/extend", handler: extend as Handler },
  { method: "POST", path: "/api/v1/jobs/[id]/settle", handler: settle as Handler },
];

interface Compiled {
  route: ApiRoute;
  pattern: RegExp;
  names: string[];
}

function compile(route: ApiRoute): Compiled {
  const names: string[] = [];
  const source = route.path
    .split("/")
    .map((part) => {
      const param = /^\[(\w+)\]$/.exec(part);
      if (!param) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(param[1]!);
      return "([^/]+)";
    })
    .join("/");
  return { route, pattern: new RegExp(`^${source}/?$`), names };
}

const compiled = apiRoutes.map(compile);

/** Finds the handler for a method and path; null when no route matches, "method" when the path exists with other methods. */
export function matchRoute(method: string, pathname: string): { handler: Handler; params: Record<string, string> } | "method" | null {
  let pathMatched = false;
  for (const c of compiled) {
    const m = c.pattern.exec(pathname);
    if (!m) continue;
    pathMatched = true;
    if (c.route.method !== method) continue;
    const params: Record<string, string> = {};
    c.names.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1]!)));
    return { handler: c.route.handler, params };
  }
  return pathMatched ? "method" : null;
}

/** Answers a request with the route's handler, or null when no /api/v1 route matches its path. */
export async function dispatch(request: Request): Promise<Response | null> {
  const { pathname } = new URL(request.url);
  const found = matchRoute(request.method, pathname);
  if (found === null) return null;
  if (found === "method") {
    return new Response(JSON.stringify({ error: { code: "method_not_allowed", message: `${request.method} is not allowed on ${pathname}.` } }), {
      status: 405,
      headers: { "content-type": "application/json; charset=utf-8" },
    });
  }
  return found.handler(request, { params: Promise.resolve(found.params) });
}
