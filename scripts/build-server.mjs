#!/usr/bin/env node
// Second half of `npm run build`: bundles the production server (server/main.ts and the lib/ code it serves
// directly) into dist/server.mjs. Packages stay external (node_modules is there at run time); Next.js's own
// build (.next) is made by `next build` just before.
import { build } from "esbuild";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
await build({
  entryPoints: [path.join(root, "server/main.ts")],
  outfile: path.join(root, process.env.TOLLBOOTH_SERVER_OUT ?? "dist/server.mjs"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  tsconfig: path.join(root, "tsconfig.json"),
  logLevel: "warning",
  banner: { js: "// Built by scripts/build-server.mjs from server/main.ts; do not edit." },
});
console.log(`Built ${process.env.TOLLBOOTH_SERVER_OUT ?? "dist/server.mjs"}`);
