"use client";

import { useActionState } from "react";
import { replayManyAction } from "@/app/app/inbox/actions";
import type { ReplayState } from "@/app/app/inbox/replay-answer";

const initial: ReplayState = { message: null, error: null };

/** Operator: replay every dead event, or every event that arrived in a window. */
export function BulkReplay() {
  const [state, action, pending] = useActionState(replayManyAction, initial);
  return (
    <div className="flex flex-wrap items-end gap-6 rounded-lg border border-stone-200 bg-white p-4">
      <form action={action}>
        <input type="hidden" name="kind" value="dead" />
        <button disabled={pending} className="rounded-md bg-stone-900 px-4 py-2 text-sm font-medium text-white disabled:opacity-50">
          Replay all dead events
        </button>
      </form>
      <form action={action} className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="kind" value="window" />
        <label className="flex flex-col text-sm">
          Arrived from (UTC)
          <input type="datetime-local" name="from" required step="1" className="mt-1 rounded-md border border-stone-300 px-2 py-1" />
        </label>
        <label className="flex flex-col text-sm">
          to (UTC)
          <input type="datetime-local" name="to" required step="1" className="mt-1 rounded-md border border-stone-300 px-2 py-1" />
        </label>
        <button disabled={pending} className="rounded-md border border-stone-400 px-4 py-2 text-sm font-medium disabled:opacity-50">
          Replay the window
        </button>
      </form>
      {state.message ? <p className="w-full text-sm text-green-800" role="status">{state.message}</p> : null}
      {state.error ? <p role="alert" className="w-full text-sm text-red-700">{state.error}</p> : null}
    </div>
  );
}
