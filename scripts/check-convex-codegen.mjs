// Fails when convex/_generated differs from what `convex codegen` writes for
// the current convex/ folder. Runs offline: codegen needs no deployment.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const dir = path.resolve("convex/_generated");
const snapshot = (d) =>
  fs.existsSync(d) ? Object.fromEntries(fs.readdirSync(d).sort().map((f) => [f, fs.readFileSync(path.join(d, f), "utf8")])) : {};

const before = snapshot(dir);
execFileSync("npx", ["convex", "codegen", "--system-udfs", "--typecheck", "disable"], { stdio: ["ignore", "ignore", "inherit"] });
const after = snapshot(dir);

const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((f) => before[f] !== after[f]);
if (changed.length > 0) {
  console.error(`convex/_generated was out of date (${changed.join(", ")}). It has been regenerated: commit it.`);
  process.exit(1);
}
console.log("convex/_generated is up to date.");
