/**
 * The production server's warm-up, before its port opens (server/main.ts; TOLLBOOTH_WARMUP=off skips it).
 *
 * A fresh Node process runs its code in V8's interpreter until each function has been called often enough to be
 * compiled; until then every request costs about three times its steady-state CPU. A server that has just started
 * or restarted is exactly when workers come back all at once (the article's load run: 50 reserves at the same
 * instant), so those first answers were the slowest the gate gave: reserve p99 110–330 ms on a fresh server against
 * 50–90 ms on a warm one (`npm run bench -- gate`, "fresh server").
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
      const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
      const port = (server.address() as net.AddressInfo).port;
      let count = 0;
      const call = (method: string, pathname: string, token: string | null, body?: unknown) =>
        new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
          count++;
          const payload = body === undefined ? undefined : JSON.stringify(body);
          const headers: Record<string, string | number> = token ? { authorization: `Bearer ${token}` } : {};
          if (payload) Object.assign(headers, { "content-type": "application/json", "content-length": Buffer.byteLength(payload) });
          const request = http.request({ agent, host: "127.0.0.1", port, method, path: pathname, headers }, (response) => {
            let text = "";
            response.setEncoding("utf8");
            response.on("data", (chunk: string) => (text += chunk));
            response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text.startsWith("{") ? (JSON.parse(text) as Record<string, unknown>) : {} }));
            response.on("error", reject);
          });
          request.on("error", reject);
          request.end(payload);
        });
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
        agent.destroy();
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });
    return { ms: Math.round(performance.now() - started), requests };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
