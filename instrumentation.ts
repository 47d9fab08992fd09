/**
 * Next.js calls register() once when the server starts. The Node.js side
 * (instrumentation-node.ts) opens the database, prints the operator token on
 * first start and starts the schedules.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    await import("./instrumentation-node");
  }
}
