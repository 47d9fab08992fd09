/**
 * The Engine Room as the app runs it: events signed by the stand-in's key
 * (the one the endpoint trusts when the stand-in is the provider) and sent
 * over HTTP to this server's real endpoints.
 */
import type { Runtime } from "../../runtime";
import { signStandinEvent, type KindeEvent } from "../../standin/webhooks";
import { DRILL_HEADER, DRILL_STOP_WORKER } from "../intake";
import type { RoomDeps } from "./run";

export const DELIVERY_TIMEOUT_MS = 15_000;

export function httpRoomDeps(runtime: Runtime, origin: string): RoomDeps {
  return {
    run: runtime.engine.run.bind(runtime.engine),
    nowMs: Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    sign: (claims) => signStandinEvent(runtime.standin, claims as unknown as KindeEvent),
    async deliver(target, d) {
      const headers: Record<string, string> = { "content-type": "application/jwt", "webhook-id": d.webhookId };
      // The naive endpoint is the operator's only; the drill header needs the operator token.
      if (target === "naive" || d.stopWorker) headers.authorization = `Bearer ${runtime.operator.token}`;
      if (d.stopWorker) headers[DRILL_HEADER] = DRILL_STOP_WORKER;
      const path = target === "pipeline" ? "/api/webhooks/kinde" : "/api/webhooks/kinde/naive";
      const response = await fetch(`${origin}${path}`, { method: "POST", headers, body: d.token, signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS), redirect: "manual" });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // keep the text
      }
      return { status: response.status, body };
    },
    log: (message) => console.log(`[tollbooth] engine room: ${message}`),
  };
}
