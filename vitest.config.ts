import path from "node:path";
import { defineConfig, type Plugin } from "vitest/config";

/**
 * Route modules import vanilla-extract style files (`*.css.ts`), which the Remix compiler runs
 * inside a file scope. The route tests (app/testing) import route modules, so give each style
 * file its scope here, as vanilla-extract's own bundler integrations do.
 */
const vanillaExtractFileScope: Plugin = {
  name: "vanilla-extract-file-scope",
  transform(code, id) {
    if (!id.endsWith(".css.ts")) return null;
    const file = JSON.stringify(path.relative(process.cwd(), id));
    return `import { setFileScope, endFileScope } from "@vanilla-extract/css/fileScope";\nsetFileScope(${file}, "meridian");\n${code}\nendFileScope();\n`;
  },
};

export default defineConfig({
  plugins: [vanillaExtractFileScope],
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
