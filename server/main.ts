/**
 * The production server (`npm start`, built by `npm run build` into
 * dist/server.mjs). One Node http server, one process, one runtime:
 *
 *  - a request whose method and path are in lib/api/routes.ts (the gate,
 *    accounts and keys under /api/v1, the short-link redirect /r/<code>, the
 *    webhook intake, health and ping) is answered by that route's handler
 *    directly: the same function app/.../route.ts re-exports, without
 *    Next.js's router in the way;
 *  - everything else (pages, server actions, assets, /api/session, …) goes to
 *    Next.js's own request handler.
 *
 * Why: the gate's lifecycles, the redirects and the webhook intake are held to
 * a share of what a bare node:http + SQLite server does on the same machine,
 * and through Next.js route handlers they cost several times the CPU per
 * request (`npm run bench`: gate.ts, redirects.ts and inbox.ts print both). `npm run dev` stays `next dev`, which serves the same handlers
 * through the route files.
 *
 * Flags as for `next start`: -p/--port (or PORT, default 3000), -H/--hostname
 * (or HOSTNAME, default 0.0.0.0). TOLLBOOTH_PAGES=off leaves Next.js out and
 * serves only the direct routes. Before it listens, the server warms its hot
 * paths on a throwaway database (server/warmup.ts); TOLLBOOTH_WARMUP=off skips
 * that.
 */
import http from "node:http";
import { readConfig } from "../lib/config";
import { startRuntime } from "../lib/runtime";
import { directListener, type NodeHandler } from "./direct";
import { warmUp } from "./warmup";

function option(short: string, long: string): string | undefined {
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === short || argv[i] === long) return argv[i + 1];
    if (argv[i]!.startsWith(`${long}=`)) return argv[i]!.slice(long.length + 1);
  }
  return undefined;
}

async function main(): Promise<void> {
  const port = Number(option("-p", "--port") ?? process.env.PORT ?? 3000);
  const hostname = option("-H", "--hostname") ?? process.env.HOSTNAME ?? "0.0.0.0";
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`The port must be a number from 0 to 65535, got ${port}.`);
  (process.env as Record<string, string>).NODE_ENV ??= "production";

  // A bad config stops the start with its message before anything else.
  const config = readConfig();
  // Warm the hot paths on a throwaway runtime before the real one exists (server/warmup.ts); embedded engine only.
  if (config.engine === "sqlite" && (process.env.TOLLBOOTH_WARMUP ?? "on") !== "off") {
    // A failed warm-up only costs speed: the server starts cold and says why (tests/api/warmup.test.ts runs it).
    await warmUp().then(
      (warmed) => console.log(`[tollbooth] warmed up: ${warmed.requests} requests on a throwaway database in ${warmed.ms} ms`),
      (error: unknown) => console.error(`[tollbooth] warm-up skipped: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
  // Then the runtime: a locked data folder stops the start with its message.
  startRuntime();
  // TOLLBOOTH_PAGES=off serves only the direct routes (the crash test uses it: it needs the API, not a page build).
  const pages = (process.env.TOLLBOOTH_PAGES ?? "on") !== "off";
  let nextHandler: NodeHandler = async (_req, res) => {
    res.writeHead(404, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify({ error: { code: "not_found", message: "This server was started with TOLLBOOTH_PAGES=off: only the API is served." } }));
  };
  if (pages) {
    const { default: next } = await import("next");
    const app = next({ dev: false, dir: process.cwd(), hostname, port });
    nextHandler = app.getRequestHandler();
    await app.prepare();
  }

  const server = http.createServer(directListener(nextHandler));
  server.keepAliveTimeout = 65_000;
  server.listen(port, hostname, () => {
    console.log(`Tollbooth ready on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port} (production; the routes in lib/api/routes.ts served directly, ${pages ? "the rest by Next.js" : "pages off"})`);
  });
}

main().catch((error: unknown) => {
  console.error(`\n${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
