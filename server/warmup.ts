/**
 * The production server's warm-up, before its port opens (server/main.ts; TOLLBOOTH_WARMUP=off skips it).
 *
 * A fresh Node process runs its code in V8's interpreter until each function has been called often enough to be
 * compiled; until then every request costs about three times its steady-state CPU. A server that has just started
 * or restarted is exactly when workers come back all at once (the article's load run: 50 reserves at the same
 * instant), so those first answers were the slowest the gate gave: reserve p99 89–296 ms on a freshly started server
 * against 46–83 ms (one run in 17: 111 ms) with this warm-up (the article's run, by hand; ARCHITECTURE.md, "Warm-up").
 *
 * So before listening, the server runs the hot paths for real, through the same listener, bridge, handlers, scripts
 * and engine, over loopback HTTP, on a throwaway embedded runtime (lib/runtime.ts `withScratchRuntime`: SQLite in a
 * temporary folder, the stand-in), never on the real data: open an account, job lifecycles (reserve, charges,
 * settle) at some concurrency, its budget, a link and clicks on it. Then the scratch runtime is closed and its folder
 * removed. Only on the embedded engine: on Convex the work runs in Convex, and a warm-up would write real rows there.
 */
import fs from "node:fs";
import http from "node:http";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { withScratchRuntime } from "../lib/runtime";
import { directListener } from "./direct";

export interface WarmUpReport {
  ms: number;
  requests: number;
}

const LIFECYCLES = 400;
const CONCURRENCY = 25;
const CLICKS = 600;

export async function warmUp(): Promise<WarmUpReport> {
  const started = performance.now();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tollbooth-warmup-"));
  try {
    const requests = await withScratchRuntime(dataDir, async (runtime) => {
      const server = http.createServer(
        directListener(async (_req, res) => {
          res.writeHead(404).end();
        }),
      );
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
      let count = 0;
      // Plain fetch: the warm-up's own cost is not measured, and it has no client of its own to keep in step.
      const call = async (method: string, pathname: string, token: string | null, body?: unknown) => {
        count++;
        const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
        if (body !== undefined) headers["content-type"] = "application/json";
        const response = await fetch(`${base}${pathname}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: "manual" });
        const text = await response.text();
        return { status: response.status, body: text.startsWith("{") ? (JSON.parse(text) as Record<string, unknown>) : {} };
      };
      const expect = (what: string, answer: { status: number; body: Record<string, unknown> }, ...statuses: number[]) => {
        if (!statuses.includes(answer.status)) throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
        return answer.body;
      };
      try {
        const operator = runtime.operator.token;
        const opened = expect("opening the warm-up account", await call("POST", "/api/v1/accounts", operator, { name: "warm-up", limits: { tokens: 10 ** 12 }, admissionsPerMinute: 1_000_000 }), 201) as {
          account: { id: string };
          apiKey: { key: string };
        };
        const made = expect("making its key", await call("POST", `/api/v1/accounts/${opened.account.id}/keys`, operator, { ratePerMinute: 100_000 }), 201) as { apiKey: { key: string } };
        const key = made.apiKey.key;
        let next = 0;
        const worker = async () => {
          while (next < LIFECYCLES) {
            const n = next++;
            const job = expect("reserve", await call("POST", "/api/v1/jobs", key, { key: `warm-${n}`, estimate: 300 }), 201) as { id: string };
            for (let step = 1; step <= 3; step++) expect("charge", await call("POST", `/api/v1/jobs/${job.id}/charge`, key, { tokens: 100, step }), 200);
            expect("settle", await call("POST", `/api/v1/jobs/${job.id}/settle`, key, { used: 300, outcome: "completed" }), 200);
            if (n % 20 === 0) {
              expect("job", await call("GET", `/api/v1/jobs/${job.id}`, key), 200);
              expect("budget", await call("GET", `/api/v1/accounts/${opened.account.id}/budget`, key), 200);
            }
          }
        };
        await Promise.all(Array.from({ length: CONCURRENCY }, worker));
        const link = expect("creating a link", await call("POST", "/api/v1/links", key, { destination: "https://example.com/warm-up" }), 201) as { code: string };
        let clicks = 0;
        const clicker = async () => {
          while (clicks++ < CLICKS) expect("click", await call("GET", `/r/${link.code}`, null), 302);
        };
        await Promise.all(Array.from({ length: CONCURRENCY }, clicker));
        expect("link stats", await call("GET", `/api/v1/links/${link.code}`, key), 200);
        return count;
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });
    return { ms: Math.round(performance.now() - started), requests };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
