"use client";

import { useActionState } from "react";
import type { ReplayState } from "@/app/app/inbox/replay-answer";

const initial: ReplayState = { message: null, error: null };

/**
 * Puts one stored event back in the queue; shows how it ended. `action` is the
 * area's replay action: the operator's (any event) or a member's (their own).
 */
export function ReplayButton({ inboxEventId, action: replay }: { inboxEventId: string; action: (previous: ReplayState, form: FormData) => Promise<ReplayState> }) {
  const [state, action, pending] = useActionState(replay, initial);
  return (
    <form action={action} className="inline">
      <input type="hidden" name="inboxEventId" value={inboxEventId} />
      <button disabled={pending} className="rounded border border-stone-300 px-2 py-0.5 text-xs hover:bg-stone-100 disabled:opacity-50" aria-label={`Replay ${inboxEventId}`}>
        {pending ? "Replaying…" : "Replay"}
      </button>
      {state.message ? <p className="mt-1 max-w-xs text-xs text-green-800">{state.message}</p> : null}
      {state.error ? <p role="alert" className="mt-1 max-w-xs text-xs text-red-700">{state.error}</p> : null}
    </form>
  );
}
