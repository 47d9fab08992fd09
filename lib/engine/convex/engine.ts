/**
 * The Convex engine as seen from the Next.js server: each script runs as the
 * Convex function of the same name (script `accounts.create` is
 * `accounts:create` in convex/accounts.ts). The caller is a ConvexHttpClient
 * in production and convex-test's harness in the contract suite.
 */
import { makeFunctionReference } from "convex/server";
import { ConvexError } from "convex/values";
import { AppError, ERROR_STATUS, type ErrorCode } from "../../errors";
import type { ArgsOf, ResultOf, Script } from "../../scripts/define";
import { parseInput } from "../../validation";
import type { Engine, EngineInfo } from "../types";

export interface ConvexCaller {
  mutation(ref: ReturnType<typeof makeFunctionReference<"mutation">>, args: Record<string, unknown>): Promise<unknown>;
  query(ref: ReturnType<typeof makeFunctionReference<"query">>, args: Record<string, unknown>): Promise<unknown>;
}

export function convexFunctionName(scriptName: string): string {
  const dot = scriptName.indexOf(".");
  if (dot <= 0) throw new Error(`Script name ${scriptName} is not <module>.<function>`);
  return `${scriptName.slice(0, dot)}:${scriptName.slice(dot + 1)}`;
}

export class ConvexEngine implements Engine {
  readonly kind = "convex" as const;

  constructor(
    private readonly caller: ConvexCaller,
    private readonly serverKey: string,
    private readonly url: string,
  ) {}

  async run<S extends Script>(script: S, args: ArgsOf<S>): Promise<ResultOf<S>> {
    // Parse here too, so bad input is refused before a network round trip
    // with the same message the SQLite engine gives.
    const parsed = parseInput(script.args, args, script.name) as Record<string, unknown>;
    const name = convexFunctionName(script.name);
    const payload = { serverKey: this.serverKey, args: parsed };
    try {
      const result =
        script.kind === "mutation"
          ? await this.caller.mutation(makeFunctionReference<"mutation">(name), payload)
          : await this.caller.query(makeFunctionReference<"query">(name), payload);
      return result as ResultOf<S>;
    } catch (error) {
      throw fromConvexError(error);
    }
  }

  async info(): Promise<EngineInfo> {
    return { kind: "convex", migrationVersion: null, detail: { url: this.url } };
  }

  async close(): Promise<void> {}
}

/** A ConvexError carrying { code, message } becomes the AppError the script threw. */
export function fromConvexError(error: unknown): unknown {
  if (error instanceof ConvexError || (typeof error === "object" && error !== null && "data" in error)) {
    const data = (error as { data: unknown }).data;
    if (typeof data === "object" && data !== null && typeof (data as { code?: unknown }).code === "string") {
      const d = data as { code: string; message?: string; details?: Record<string, unknown> | null; retryAfterSeconds?: number | null };
      if (d.code in ERROR_STATUS) {
        return new AppError(d.code as ErrorCode, d.message ?? d.code, {
          details: d.details ?? undefined,
          retryAfterSeconds: d.retryAfterSeconds ?? undefined,
        });
      }
    }
  }
  return error;
}
