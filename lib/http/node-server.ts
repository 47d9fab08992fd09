/**
 * Serves fetch-style handlers (`(Request) => Promise<Response>`, the functions
 * app/**\/route.ts export) from a plain node:http server, without Next.js.
 * The crash test and the redirect benchmark use it to run the very same
 * handlers in a lighter process; a route is a method, a path pattern whose
 * groups become `params`, and the handler.
 */
import type http from "node:http";
import { Readable } from "node:stream";

export type FetchHandler<P extends Record<string, string> = Record<string, string>> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

export interface NodeRoute {
  method: string;
  /** Matched against the path; named groups become params. */
  path: RegExp;
  handler: FetchHandler;
}

export function toRequest(req: http.IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const method = req.method ?? "GET";
  const url = `http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`;
  if (method === "GET" || method === "HEAD") return new Request(url, { method, headers });
  return new Request(url, { method, headers, body: Readable.toWeb(req) as ReadableStream, duplex: "half" } as RequestInit);
}

export async function writeResponse(response: Response, res: http.ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
  res.end();
}

/** A node:http request listener over a list of routes; anything else is 404. */
export function nodeListener(routes: readonly NodeRoute[]): http.RequestListener {
  return (req, res) => {
    void (async () => {
      try {
        const path = (req.url ?? "/").split("?")[0]!;
        for (const route of routes) {
          if (route.method !== req.method) continue;
          const match = route.path.exec(path);
          if (!match) continue;
          const params = Promise.resolve({ ...match.groups } as Record<string, string>);
          await writeResponse(await route.handler(toRequest(req), { params }), res);
          return;
        }
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("not found");
      } catch (error) {
        console.error("[tollbooth] unexpected error", error);
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end("internal error");
      }
    })();
  };
}
