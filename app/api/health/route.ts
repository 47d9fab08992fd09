import { json, route } from "@/lib/http/api";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/** Engine, provider, migration version and schedule state. Later parts add their counts (dead events, reporter lag). */
export const GET = route(async () => {
  const runtime = getRuntime();
  const info = await runtime.engine.info();
  return json({
    status: "ok",
    engine: info.kind,
    migrationVersion: info.migrationVersion,
    provider: runtime.config.provider,
    uptimeSeconds: Math.round((Date.now() - runtime.startedAtMs) / 1000),
    schedules: runtime.scheduler?.state() ?? [],
  });
});
