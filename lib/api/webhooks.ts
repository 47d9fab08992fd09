/**
 * POST /api/webhooks/kinde as a plain handler (re-exported by
 * app/api/webhooks/kinde/route.ts, served directly by server/main.ts).
 * Kinde's billing webhooks: verify, store, answer 200 — nothing else. The 200
 * means "stored"; the worker applies the event after the answer.
 */
import { afterResponse } from "../http/after";
import { json, route } from "../http/api";
import { authenticate } from "../http/auth";
import { intake, runtimeIntakeDeps } from "../inbox/intake";
import { kickInboxWorker } from "../inbox/kick";
import { getRuntime } from "../runtime";

export const receiveKindeWebhook = route(async (request: Request) => {
  // Kinde sends no credentials; only the Engine Room's drill needs to know the caller is the operator.
  let operator = false;
  if (request.headers.has("authorization")) {
    try {
      operator = (await authenticate(request)).kind === "operator";
    } catch {
      operator = false;
    }
  }
  const result = await intake(request, runtimeIntakeDeps(getRuntime(), operator));
  // The event is stored; the kick only saves it the wait for the 5 s schedule.
  afterResponse(kickInboxWorker);
  return json({ received: true, stored: result.stored, inboxEventId: result.inboxEventId, seenCount: result.seenCount }, 200);
});

