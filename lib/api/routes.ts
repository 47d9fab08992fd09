/**
 * The routes the production server (server/main.ts) answers directly, without
 * Next.js's router: method, path pattern, handler — the same handler objects
 * that app/<path>/route.ts re-exports, so `next dev` and `npm start` run one
 * set of handlers (tests/api/routes.test.ts checks it). A request that matches
 * no entry goes to Next.js (pages, server actions, operator tools).
 *
 * Mounted: the gate, accounts, keys and links (/api/v1), the short-link redirect
 * (/r/<code>, GET and HEAD), the webhook intake (/api/webhooks/kinde), health
 * and ping. To mount another hot route: write its handler as
 * `(Request, { params }) => Promise<Response>` in lib/api/<part>.ts (or its
 * part's lib folder), export it from app/<path>/route.ts, and add one line
 * here. Tests also use `dispatch` as an in-process `fetch`.
 */
import { openAccount, listAccounts, getAccount, updateAccount } from "./accounts";
import { budget, charge, extend, getJob, reserve, settle } from "./gate";
import { health, ping } from "./health";
import { createKey, listKeys, revokeKey } from "./keys";
import { createLink, getLink, linkQr, listLinks } from "./links";
import { receiveKindeWebhook } from "./webhooks";
import { handleRedirect, handleRedirectHead } from "../links/redirect";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface ApiRoute {
  method: "GET" | "HEAD" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** The app/ path, e.g. /api/v1/jobs/[id]/charge. A HEAD is answered here only where the table has a HEAD entry. */
  path: string;
  handler: Handler;
}

export const apiRoutes: readonly ApiRoute[] = [
  { method: "POST", path: "/api/v1/accounts", handler: openAccount as Handler },
  { method: "GET", path: "/api/v1/accounts", handler: listAccounts as Handler },
  { method: "GET", path: "/api/v1/accounts/[id]", handler: getAccount as Handler },
  { method: "PATCH", path: "/api/v1/accounts/[id]", handler: updateAccount as Handler },
  { method: "GET", path: "/api/v1/accounts/[id]/budget", handler: budget as Handler },
  { method: "GET", path: "/api/v1/accounts/[id]/keys", handler: listKeys as Handler },
  { method: "POST", path: "/api/v1/accounts/[id]/keys", handler: createKey as Handler },
  { method: "DELETE", path: "/api/v1/accounts/[id]/keys/[keyId]", handler: revokeKey as Handler },
  { method: "POST", path: "/api/v1/jobs", handler: reserve as Handler },
  { method: "GET", path: "/api/v1/jobs/[id]", handler: getJob as Handler },
  { method: "POST", path: "/api/v1/jobs/[id]/charge", handler: charge as Handler },
  { method: "POST", path: "/api/v1/jobs/[id]/extend", handler: extend as Handler },
  { method: "POST", path: "/api/v1/jobs/[id]/settle", handler: settle as Handler },
  { method: "POST", path: "/api/v1/links", handler: createLink as Handler },
  { method: "GET", path: "/api/v1/links", handler: listLinks as Handler },
  { method: "GET", path: "/api/v1/links/[code]", handler: getLink as Handler },
  { method: "GET", path: "/api/v1/links/[code]/qr", handler: linkQr as Handler },
  { method: "GET", path: "/r/[code]", handler: handleRedirect as Handler },
  { method: "HEAD", path: "/r/[code]", handler: handleRedirectHead as Handler },
  { method: "POST", path: "/api/webhooks/kinde", handler: receiveKindeWebhook as Handler },
  { method: "GET", path: "/api/health", handler: health as Handler },
  { method: "GET", path: "/api/ping", handler: ping as Handler },
  { method: "POST", path: "/api/ping", handler: ping as Handler },
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

/** The handler for a method and path, or null (Next.js answers it: another route file, another method, or 404). */
export function matchRoute(method: string, pathname: string): { handler: Handler; params: Record<string, string> } | null {
  for (const c of compiled) {
    if (c.route.method !== method) continue;
    const m = c.pattern.exec(pathname);
    if (!m) continue;
    const params: Record<string, string> = {};
    try {
      c.names.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1]!)));
    } catch {
      return null; // a malformed %-escape: let Next.js answer it
    }
    return { handler: c.route.handler, params };
  }
  return null;
}

/** Answers a request with the route's handler, or null when no direct route matches its method and path. */
export async function dispatch(request: Request): Promise<Response | null> {
  const found = matchRoute(request.method, new URL(request.url).pathname);
  return found ? found.handler(request, { params: Promise.resolve(found.params) }) : null;
}
