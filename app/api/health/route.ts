import { json, route } from "@/lib/http/api";
import * as inbox from "@/lib/inbox/scripts";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/** Engine, provider, migration version and schedule state. Each part adds its counts (the inbox: dead events). */
export const GET = route(async () => {
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
