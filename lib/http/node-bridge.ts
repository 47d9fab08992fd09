/**
 * Serves a Web-standard handler `(Request) => Promise<Response>` on a Node
 * http request, for the production server's direct path (server/main.ts).
 * Bodies are small JSON, so the request body is read whole (with a cap) and
 * the response body written in one go.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { requestWithBody, responseText } from "./body";
import { securityHeaders } from "./headers";

/** Far above any route's own limit (lib/http/api.ts JSON_BODY_LIMIT_BYTES); only a guard for memory. */
export const BRIDGE_BODY_LIMIT_BYTES = 1024 * 1024;

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > BRIDGE_BODY_LIMIT_BYTES) {
        req.destroy();
        reject(new Error("body too large"));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(chunks.length === 0 ? null : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export async function toWebRequest(req: IncomingMessage): Promise<Request> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const method = req.method ?? "GET";
  const body = method === "GET" || method === "HEAD" ? null : await readBody(req);
  const host = req.headers.host && /^[A-Za-z0-9.\-:[\]]+$/.test(req.headers.host) ? req.headers.host : "localhost";
  // The body stays a Buffer beside the Request (body.ts): readText takes it without a Web stream.
  return requestWithBody(`http://${host}${req.url ?? "/"}`, { method, headers }, body);
}

export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const text = responseText(response); // json() answers: no need to read the stream back
  const body = text !== undefined ? Buffer.from(text) : response.body ? Buffer.from(await response.arrayBuffer()) : null;
  const headers: Record<string, string | string[]> = {};
  for (const { key, value } of securityHeaders) headers[key.toLowerCase()] = value;
  response.headers.forEach((value, key) => {
    if (key !== "set-cookie") headers[key] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  headers["content-length"] = String(body?.length ?? 0);
  res.writeHead(response.status, headers);
  // A HEAD answer carries the headers a GET would (content-length included) and no body (Node drops one anyway).
  res.end(res.req.method === "HEAD" ? undefined : body);
}

/** Answers one Node request with a Web handler; a failure before the handler runs is a plain 400/500 in the API's error shape. */
export async function serveWithHandler(req: IncomingMessage, res: ServerResponse, handle: (request: Request) => Promise<Response>): Promise<void> {
  let request: Request;
  try {
    request = await toWebRequest(req);
  } catch {
    if (!res.headersSent) {
      res.writeHead(413, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify({ error: { code: "payload_too_large", message: "The body could not be read or is too large." } }));
    }
    return;
  }
  await sendWebResponse(res, await handle(request));
}
