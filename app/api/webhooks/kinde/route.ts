import { after } from "next/server";
import { json, route } from "@/lib/http/api";
import { authenticate } from "@/lib/http/auth";
import { intake, runtimeIntakeDeps } from "@/lib/inbox/intake";
import { kickInboxWorker } from "@/lib/inbox/kick";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/**
 * Kinde's billing webhooks. Verify, store, answer 200 — nothing else: the
 * 200 means "stored", and the worker applies it after the answer.
 */
export const POST = route(async (request) => {
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
  runAfterAnswer(kickInboxWorker);
  return json({ received: true, stored: result.stored, inboxEventId: result.inboxEventId, seenCount: result.seenCount }, 200);
});

/** Next's after() outside a request (the route-handler tests) throws; then the kick runs in the background. */
function runAfterAnswer(task: () => Promise<void>): void {
  try {
    after(task);
  } catch {
    void task();
  }
}
