#!/usr/bin/env node
// npm run bench — runs every benchmark in scripts/bench/ one after another and prints their figures.
// Benchmarks print numbers; they never assert. Run one alone with: npx tsx scripts/bench/<name>.ts
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const dir = path.join(import.meta.dirname, "bench");
const only = process.argv[2];
const files = fs.readdirSync(dir).filter((f) => /\.(ts|mjs)$/.test(f) && (!only || f.startsWith(only))).sort();
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(dir, file)], { stdio: "inherit" });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
