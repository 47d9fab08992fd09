/**
 * GET /api/health and /api/ping as plain handlers (re-exported by their route
 * files, served directly by server/main.ts).
 */
import { json, route } from "../http/api";
import * as inbox from "../inbox/scripts";
import { getRuntime } from "../runtime";

/** Engine, provider, migration version and schedule state. Each part adds its counts (the inbox: dead events). */
export const health = route(async () => {
  const runtime = getRuntime();
  const info = await runtime.engine.info();
  const dead = await runtime.engine.run(inbox.deadCount, {});
  return json({
    status: "ok",
    engine: info.kind,
    migrationVersion: info.migrationVersion,
    provider: runtime.config.provider,
    uptimeSeconds: Math.round((Date.now() - runtime.startedAtMs) / 1000),
    schedules: runtime.scheduler?.state() ?? [],
    // Dead billing events need a person (Part C); counted up to the cap.
    inbox: { deadEvents: dead.dead, deadCountCap: dead.cap },
  });
});

/** Answers 200 and does nothing else: a liveness probe, and the bare route the intake benchmark compares against. */
export async function ping(): Promise<Response> {
  return new Response("ok", { status: 200 });
}
