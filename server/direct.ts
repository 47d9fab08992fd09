/**
 * The production server's request listener (server/main.ts): a request whose
 * method and path are in lib/api/routes.ts goes to that route's handler
 * through lib/http/node-bridge.ts; anything else to `fallback` (Next.js, or a
 * 404 when pages are off). Kept apart from main.ts so tests can serve it.
 */
import type http from "node:http";
import { matchRoute } from "../lib/api/routes";
import { serveWithHandler } from "../lib/http/node-bridge";

export type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

export function directListener(fallback: NodeHandler): http.RequestListener {
  return (req, res) => {
    const pathname = (req.url ?? "/").split("?", 1)[0]!;
    const found = matchRoute(req.method ?? "GET", pathname);
    if (found === null) {
      void fallback(req, res);
      return;
    }
    void serveWithHandler(req, res, (request) => found.handler(request, { params: Promise.resolve(found.params) })).catch((error: unknown) => {
      console.error("[tollbooth] the direct path failed", error);
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify({ error: { code: "internal", message: "Something went wrong on our side." } }));
    });
  };
}
