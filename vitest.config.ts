import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "~": path.resolve("app"),
      "#protocol": path.resolve("protocol"),
    },
  },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "protocol/**/*.test.ts", "engine/**/*.test.ts", "variants/**/*.test.ts", "server/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
    // Engine integration suites open databases: give them time on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
