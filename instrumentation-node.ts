/**
 * Starts the runtime in the Node.js server. Any start failure (a config
 * error, a failed migration, a locked data folder) stops the process with its
 * message: the server never starts half-working.
 */
import { startRuntime } from "./lib/runtime";

try {
  startRuntime();
} catch (error) {
  console.error(`\n${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
