// The load scripts' HTTP client and percentile, plain ESM with no server imports. The load generator shares the
// machine with the server it drives, so it stays light: node:http with a keep-alive agent, not fetch (undici's
// fetch costs several times the CPU per request, which a 2-core machine takes from the server under test).
import http from "node:http";
import https from "node:https";

/** The p-th percentile (nearest rank) of an ascending array; NaN when it is empty. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * A keep-alive client for baseUrl with at most `sockets` connections. call() answers { status, headers, body } (JSON
 * bodies parsed, others as text); a request that got no answer is retried for up to retryForMs (0: never), so only
 * pass a retry window for requests that are safe to repeat.
 */
export function makeClient(baseUrl, sockets) {
  const base = new URL(baseUrl);
  const lib = base.protocol === "https:" ? https : http;
  const agent = new lib.Agent({ keepAlive: true, maxSockets: sockets });
  let requests = 0;
  function once(method, pathname, token, body) {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers = {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
      };
      const request = lib.request({ agent, method, host: base.hostname, port: base.port, path: pathname, headers, timeout: 30_000 }, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => {
          let parsed = null;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            parsed = text;
          }
          resolve({ status: response.statusCode, headers: response.headers, body: parsed });
        });
        response.on("error", reject);
      });
      request.on("timeout", () => request.destroy(new Error("timed out")));
      request.on("error", reject);
      request.end(payload);
    });
  }
  return {
    get requests() {
      return requests;
    },
    async call(method, pathname, token, body, retryForMs = 0) {
      const started = Date.now();
      for (let attempt = 1; ; attempt++) {
        requests++;
        try {
          return await once(method, pathname, token, body);
        } catch (error) {
          if (Date.now() - started >= retryForMs) throw error;
          await new Promise((r) => setTimeout(r, Math.min(500, 25 * 2 ** attempt)));
        }
      }
    },
    close: () => agent.destroy(),
  };
}
