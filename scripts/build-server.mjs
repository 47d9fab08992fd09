#!/usr/bin/env node
// Second half of `npm run build`: bundles the production server (server/main.ts and the lib/ code it serves
// directly) into dist/server.mjs. Packages stay external (node_modules is there at run time); Next.js's own
// build (.next) is made by `next build` just before.
import { build } from "esbuild";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

// Packages stay external, so the bundle's imports are resolved by Node's ESM loader at run time, which (unlike a
// bundler) needs the file of a subpath in a package without an exports map: `next/server` must be `next/server.js`.
const nextSubpaths = {
  name: "next-subpaths",
  setup(b) {
    b.onResolve({ filter: /^next\/[\w-]+$/ }, (args) => ({ path: `${args.path}.js`, external: true }));
  },
};
await build({
  entryPoints: [path.join(root, "server/main.ts")],
  outfile: path.join(root, process.env.TOLLBOOTH_SERVER_OUT ?? "dist/server.mjs"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  plugins: [nextSubpaths],
  sourcemap: true,
  tsconfig: path.join(root, "tsconfig.json"),
  logLevel: "warning",
  banner: {
    // The first import of the bundle, so it runs before any other (ESM evaluates imports in order, and esbuild puts
    // the bundle's own code after every import): Next.js's environment baseline, which `next start` also loads
    // first. It puts AsyncLocalStorage on globalThis; without it, lib code that imports next/server (after(), for
    // work after the answer) would make Next.js's request storage a stand-in that throws once Next.js serves pages.
    js: '// Built by scripts/build-server.mjs from server/main.ts; do not edit.\nimport "next/dist/server/node-environment-baseline.js";',
  },
});
console.log(`Built ${process.env.TOLLBOOTH_SERVER_OUT ?? "dist/server.mjs"}`);
