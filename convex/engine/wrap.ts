/**
 * Turns a transaction script into a Convex function. The function is thin:
 * check the server key, build a store over ctx.db, run the shared script.
 * Validators come from the script's own zod schemas, so both engines check
 * the same shapes.
 *
 * The functions are public so that the Next.js server can call them over
 * HTTP; each call carries TOLLBOOTH_SERVER_KEY, which only that server and
 * the deployment know, and is compared in constant time.
 */
import { zodOutputToConvex, zodToConvex } from "convex-helpers/server/zod4";
import { ConvexError, v, type Value } from "convex/values";
import { makeId } from "../../lib/ids";
import { isAppError } from "../../lib/errors";
import { constantTimeEqual } from "../../lib/security";
import type { ResultOf, Script } from "../../lib/scripts/define";
import type { Tx } from "../../lib/store/port";
import { parseInput } from "../../lib/validation";
import { mutation, query } from "../_generated/server";
import type { GenericDatabaseWriter, GenericMutationCtx } from "convex/server";
import type { DataModel } from "../_generated/dataModel";
import { createConvexStore } from "./store";

/** Convex seeds Math.random per function run, which is what it allows inside mutations. */
function mathRandomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(Math.random() * 256);
  return out;
}

export function checkServerKey(given: string): void {
  const expected = process.env.TOLLBOOTH_SERVER_KEY ?? "";
  if (expected.length < 32 || !constantTimeEqual(given, expected)) {
    throw new ConvexError({ code: "unauthorized", message: "The server key is missing or wrong." });
  }
}

export async function runScript(script: Script, db: GenericDatabaseWriter<DataModel>, rawArgs: unknown): Promise<unknown> {
  const tx: Tx = {
    store: createConvexStore(db),
    nowMs: Date.now(),
    newId: (prefix) => makeId(prefix, mathRandomBytes),
    random: Math.random,
  };
  try {
    const args = parseInput(script.args, rawArgs, script.name);
    return await script.handler(tx, args);
  } catch (error) {
    if (isAppError(error)) {
      throw new ConvexError({ code: error.code, message: error.message, details: (error.details ?? null) as Value, retryAfterSeconds: error.retryAfterSeconds ?? null });
    }
    throw error;
  }
}

/**
 * `then` runs inside the same mutation after the script succeeded, for what
 * only Convex can do there (ctx.scheduler); it commits or rolls back with it.
 */
export function wrapMutation<S extends Script>(script: S, options: { then?: (ctx: GenericMutationCtx<DataModel>, result: ResultOf<S>) => Promise<void> } = {}) {
  if (script.kind !== "mutation") throw new Error(`${script.name} is a query; wrap it with wrapQuery`);
  return mutation({
    args: { serverKey: v.string(), args: zodToConvex(script.args) },
    returns: zodOutputToConvex(script.returns),
    handler: async (ctx, { serverKey, args }) => {
      checkServerKey(serverKey);
      const result = await runScript(script, ctx.db, args);
      if (options.then) await options.then(ctx, result as ResultOf<S>);
      return result;
    },
  });
}

export function wrapQuery<S extends Script>(script: S) {
  if (script.kind !== "query") throw new Error(`${script.name} is a mutation; wrap it with wrapMutation`);
  return query({
    args: { serverKey: v.string(), args: zodToConvex(script.args) },
    returns: zodOutputToConvex(script.returns),
    handler: async (ctx, { serverKey, args }) => {
      checkServerKey(serverKey);
      // Queries get a reader; scripts of kind "query" never call a write method.
      return runScript(script, ctx.db as GenericDatabaseWriter<DataModel>, args);
    },
  });
}
