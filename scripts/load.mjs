#!/usr/bin/env node
// Load scripts against a running Tollbooth. One entry point, the articles' command lines:
//   node scripts/load.mjs --jobs 120 --estimate 1000 --limit 100000 --concurrency 50 --url http://localhost:3000
//   node scripts/load.mjs <short code> --clicks 5000 --concurrency 100 --url http://localhost:3000
//   node scripts/load.mjs --webhooks 1000 --concurrency 50 --url http://localhost:3000
// Each mode lives in scripts/load/<mode>.mjs and exports run(argv).
const argv = process.argv.slice(2);
const mode = argv.includes("--jobs") ? "jobs" : argv.includes("--clicks") ? "clicks" : argv.includes("--webhooks") ? "webhooks" : null;
if (!mode) {
  console.error("Usage: node scripts/load.mjs --jobs N … | <code> --clicks N … | --webhooks N … (see the README)");
  process.exit(2);
}
let loaded;
try {
  loaded = await import(`./load/${mode}.mjs`);
} catch (error) {
  console.error(`The ${mode} load mode is not available: ${error.message}`);
  process.exit(2);
}
process.exitCode = await loaded.run(argv);
