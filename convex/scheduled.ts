/**
 * Runs one declared schedule as an internal action. The orchestration gets
 * the same ConvexEngine the Next.js server uses, built over ctx.runMutation
 * and ctx.runQuery, so it runs the very same scripts.
 */
import { v } from "convex/values";
import { ConvexEngine, type ConvexCaller } from "../lib/engine/convex/engine";
import { createProvider } from "../lib/provider/factory";
import { readProviderSettings } from "../lib/provider/settings";
import { schedules } from "../lib/scheduler/schedules";
import { internalAction } from "./_generated/server";

export const run = internalAction({
  args: { name: v.string() },
  returns: v.null(),
  handler: async (ctx, { name }) => {
    const schedule = schedules.find((s) => s.name === name);
    if (!schedule) throw new Error(`No schedule named ${name}`);
    const caller: ConvexCaller = {
      mutation: (ref, args) => ctx.runMutation(ref, args),
      query: (ref, args) => ctx.runQuery(ref, args),
    };
    const engine = new ConvexEngine(caller, process.env.TOLLBOOTH_SERVER_KEY ?? "", "convex-internal");
    // The deployment's own environment chooses the provider (npx convex env set TOLLBOOTH_PROVIDER …, KINDE_*).
    const provider = createProvider(readProviderSettings(process.env), engine);
    await schedule.run({ run: engine.run.bind(engine), provider, nowMs: Date.now, log: (m) => console.log(m) });
    return null;
  },
});
