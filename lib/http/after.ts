/**
 * Work that should not hold up an answer. Inside a Next.js request, Next.js's
 * `after()` runs it once the response has been sent. Outside one — the
 * production server's direct path (server/main.ts), route-handler tests —
 * `after()` throws, and the task simply starts now and runs on beside the
 * answer. Never use it for work the answer promises has been done.
 */
import { after } from "next/server";

export function afterResponse(task: () => Promise<void>): void {
  try {
    after(task);
  } catch {
    void task();
  }
}
