import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": new URL(".", import.meta.url).pathname } },
  test: {
    environment: "node",
    include: ["tests/**/*.test.ts", "lib/**/*.test.ts"],
    // convex-test runs Convex functions in-process; its modules must be inlined.
    server: { deps: { inline: ["convex-test"] } },
    testTimeout: 240_000,
    hookTimeout: 240_000,
    pool: "forks",
  },
});
