import Link from "next/link";
import * as inbox from "@/lib/inbox/scripts";
import { getRuntime } from "@/lib/runtime";

/** Shown on every dashboard page while any billing event is dead (Part C: a dead event needs a person). */
export async function DeadEventsBanner() {
  const { dead, cap } = await getRuntime().engine.run(inbox.deadCount, {});
  if (dead === 0) return null;
  return (
    <div role="alert" data-testid="dead-banner" className="mb-6 rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-900">
      <strong>
        {dead >= cap ? `${cap}+` : dead} billing event{dead === 1 ? " is" : "s are"} dead
      </strong>{" "}
      after six failed attempts and will not be tried again on their own. Fix the cause, then{" "}
      <Link className="underline" href="/app/inbox?status=dead">
        replay them from the Inbox
      </Link>
      .
    </div>
  );
}
