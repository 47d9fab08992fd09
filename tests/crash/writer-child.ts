/**
 * A write load for the crash test: 64 callers create accounts through the
 * embedded engine and print each name only after its commit resolved. The
 * parent kills this process with SIGKILL mid-run.
 */
import * as accounts from "../../lib/accounts/scripts";
import { SqliteEngine } from "../../lib/engine/sqlite/engine";

const dataDir = process.argv[2]!;
const engine = new SqliteEngine({ dataDir });
let n = 0;
const worker = async () => {
  for (;;) {
    const name = `c-${n++}`;
    await engine.run(accounts.create, { name });
    process.stdout.write(`${name}\n`);
  }
};
process.stdout.write("ready\n");
await Promise.all(Array.from({ length: 64 }, worker));
