/**
 * Calls the real route handlers (the functions each app/api route.ts exports)
 * with real Request objects, over a real runtime on a temporary data folder.
 * Only Next.js's HTTP layer is left out; the browser and load tests cover it.
 */
import fs from "node:fs";
import path from "node:path";
import { tempDataDir } from "../contract/engines";

export interface CallOptions<P> {
  method?: string;
  path: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  params?: P;
  /** Bearer token; defaults to the operator token, null sends none. */
  token?: string | null;
}

export interface ApiHarness {
  dataDir: string;
  operatorToken: string;
  call<P extends Record<string, string>>(
    handler: (request: Request, context: { params: Promise<P> }) => Promise<Response>,
    options: CallOptions<P>,
  ): Promise<{ status: number; body: unknown; headers: Headers }>;
  close(): Promise<void>;
}

const RUNTIME_KEY = Symbol.for("tollbooth.runtime");

export async function startApi(env: Record<string, string> = {}): Promise<ApiHarness> {
  const dataDir = tempDataDir();
  Object.assign(process.env, { TOLLBOOTH_DATA_DIR: dataDir, TOLLBOOTH_SCHEDULER: "off", ...env });
  const { getRuntime } = await import("../../lib/runtime");
  const runtime = getRuntime();
  const operatorToken = fs.readFileSync(path.join(dataDir, "operator-token"), "utf8").trim();
  return {
    dataDir,
    operatorToken,
    async call<P extends Record<string, string>>(handler: (request: Request, context: { params: Promise<P> }) => Promise<Response>, options: CallOptions<P>) {
      const headers: Record<string, string> = { ...options.headers };
      const token = options.token === undefined ? operatorToken : options.token;
      if (token) headers.authorization = `Bearer ${token}`;
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers["content-type"] ??= "application/json";
      }
      const request = new Request(`http://127.0.0.1${options.path}`, { method: options.method ?? "GET", headers, body });
      const response = await handler(request, { params: Promise.resolve((options.params ?? {}) as P) });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, body: parsed, headers: response.headers };
    },
    async close() {
      await runtime.engine.close();
      delete (globalThis as Record<symbol, unknown>)[RUNTIME_KEY];
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
