/**
 * GET and HEAD /r/<code>: the short-link redirect, as plain `(Request) => Promise<Response>`
 * handlers, re-exported by app/r/[code]/route.ts and served directly by the
 * production server (lib/api/routes.ts).
 *
 * The click's key is made before anything else, and the same key goes with
 * every try, so a retried write can never count a click twice.
 *  - Embedded engine: the click row commits before the 302 goes out (group
 *    commit makes the wait one shared fsync), so a crash never loses a click a
 *    visitor was redirected for.
 *    No deferred work at all on this engine, so it does not matter whether
 *    Next.js or the direct path answers.
 *  - Convex: the redirect goes first (the destination is read, and cached:
 *    links never change), and the click is written after the response
 *    (lib/http/after.ts: Next.js `after` inside a Next.js request; on the
 *    direct path the write starts beside the answer), retried with the same key.
 *
 * The 302 carries the click's key in `x-click-key`, so a load or crash test
 * can check that each redirected click is in the ledger.
 */
import { v7 as uuidv7 } from "uuid";
import type { Engine } from "../engine/types";
import { afterResponse } from "../http/after";
import { getRuntime } from "../runtime";
import { ANY_CODE_PATTERN, SHORT_LINK_PATH } from "./rules";
import * as links from "./scripts";

/** Waits before each retry of a click write on Convex (then the click is given up, loudly). */
export const CLICK_RETRY_DELAYS_MS = [100, 500, 2_000, 10_000, 30_000] as const;
const DESTINATION_CACHE_MAX = 10_000;

export interface RedirectDeps {
  engine(): Engine;
  /** Runs `task` after the response has been sent. */
  defer(task: () => Promise<void>): void;
  wait?(ms: number): Promise<void>;
  log?(message: string): void;
}

// A version 7 UUID: time first, so the ledger's unique key index takes each new click at its right edge instead of
// on a random page (a v4 key dirtied another index page per click); 74 random bits keep keys apart.
export const newClickKey = () => `click_${uuidv7()}`;

export function codeOf(request: Request): string | null {
  const { pathname } = new URL(request.url);
  if (!pathname.startsWith(SHORT_LINK_PATH)) return null;
  let code: string;
  try {
    code = decodeURIComponent(pathname.slice(SHORT_LINK_PATH.length)).replace(/\/$/, "");
  } catch {
    return null;
  }
  return ANY_CODE_PATTERN.test(code) ? code : null;
}

export function createRedirectHandler(deps: RedirectDeps) {
  const wait = deps.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const log = deps.log ?? ((message: string) => console.error(`[tollbooth] ${message}`));
  const destinations = new Map<string, string>();

  const resolveCached = async (engine: Engine, code: string): Promise<string | null> => {
    const cached = destinations.get(code);
    if (cached !== undefined) return cached;
    const found = await engine.run(links.resolve, { code });
    if (!found) return null;
    if (destinations.size >= DESTINATION_CACHE_MAX) destinations.delete(destinations.keys().next().value!);
    destinations.set(code, found.destination);
    return found.destination;
  };

  const recordWithRetries = async (engine: Engine, code: string, key: string): Promise<void> => {
    for (let attempt = 0; ; attempt++) {
      try {
        await engine.run(links.click, { code, key });
        return;
      } catch (error) {
        const delay = CLICK_RETRY_DELAYS_MS[attempt];
        if (delay === undefined) {
          log(`click ${key} on ${code} was NOT recorded after ${attempt + 1} tries: ${error instanceof Error ? error.message : String(error)}`);
          return;
        }
        await wait(delay);
      }
    }
  };

  return async function redirect(request: Request): Promise<Response> {
    const key = newClickKey();
    const code = codeOf(request);
    if (code === null) return notFoundPage();
    const engine = deps.engine();
    if (engine.kind === "sqlite") {
      const clicked = await engine.run(links.click, { code, key });
      return clicked ? found(clicked.destination, key) : notFoundPage();
    }
    const destination = await resolveCached(engine, code);
    if (destination === null) return notFoundPage();
    deps.defer(() => recordWithRetries(engine, code, key));
    return found(destination, key);
  };
}

/** HEAD /r/<code>: where the link goes, without counting a click (link checkers and previews send HEAD). */
export function createHeadHandler(deps: Pick<RedirectDeps, "engine">) {
  return async function head(request: Request): Promise<Response> {
    const code = codeOf(request);
    const resolved = code === null ? null : await deps.engine().run(links.resolve, { code });
    return resolved ? new Response(null, { status: 302, headers: { location: resolved.destination, "cache-control": "no-store" } }) : notFoundPage();
  };
}

function found(destination: string, key: string): Response {
  return new Response(null, {
    status: 302,
    headers: { location: destination, "cache-control": "no-store", "x-click-key": key },
  });
}

function notFoundPage(): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Link not found</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;margin:15vh auto;max-width:32rem;padding:0 1rem;color:#292524}h1{font-size:1.5rem}</style></head>
<body><h1>This short link does not exist</h1><p>Check the address for a typo: the code after <code>/r/</code> is not a link we know.</p></body></html>`;
  return new Response(html, { status: 404, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

const runtimeEngine = () => getRuntime().engine;

/** The handlers app/r/[code]/route.ts exports and lib/api/routes.ts mounts. */
export const handleRedirect = createRedirectHandler({ engine: runtimeEngine, defer: afterResponse });
export const handleRedirectHead = createHeadHandler({ engine: runtimeEngine });
