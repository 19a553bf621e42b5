// The engine as operators run it: its TypeScript and its packages bundled into plain JavaScript
// modules (esbuild, the compiler Remix already uses). A start no longer passes every module
// through tsx's loader thread (~1.3 → ~0.65 s to /healthz on an empty database, 2-core machine)
// nor resolves and reads some 700 package files one by one (~0.62 → ~0.43 s; decision 017, steps
// 11 and 14). Development and tests keep running the TypeScript through tsx.
//
//   node scripts/build-engine.mjs [outdir]      (default build/engine)
//
// Five entries: the entry (`main.mjs`, engine/boot.ts), which starts the snapshot prefetch
// (`snapshot-prefetch.mjs`: the row on Postgres, the data folder's copy on PGlite) and then loads the engine (`engine.mjs`), and the
// snapshot worker (`snapshot-worker.mjs`), which `engine/journal/snapshot-builder.ts` starts
// beside the bundle it runs from, and the embedded database's thread (`pglite-thread.mjs`), which
// `engine/store/pglite-thread.ts` starts the same way.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

export const ENGINE_BUILD_DIR = "build/engine";

/** Bundles the engine into `outdir`; answers the path of its main module. */
export async function buildEngine(outdir = ENGINE_BUILD_DIR) {
  await build({
    entryPoints: {
      main: "engine/boot.ts",
      engine: "engine/main.ts",
      "snapshot-worker": "engine/journal/snapshot-worker.ts",
      "snapshot-prefetch": "engine/journal/snapshot-prefetch-worker.ts",
      "pglite-thread": "engine/store/pglite-thread-worker.mjs",
    },
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // Left to node_modules: a native addon, a package that loads its WebAssembly from beside its
    // own files, and optional native bindings other packages try to require (absent here).
    external: ["@node-rs/argon2", "@electric-sql/pglite", "pg-native", "bufferutil", "utf-8-validate"],
    // The CommonJS packages inside an ES module bundle still call `require` (Node's built-ins,
    // the externals above): one made for the bundle's own location.
    banner: { js: 'import { createRequire as __engineRequire } from "node:module"; const require = __engineRequire(import.meta.url);' },
    sourcemap: true,
    // Positions only: the sources are in the repository (a map with them, 8.5 MB, took ~30 ms to load at every start).
    sourcesContent: false,
    logLevel: "warning",
    // No `keepNames`: it wrapped every named closure in a `__name` call each time the closure was
    // made, Fastify's per-request ones included (~5 % of the engine's time per order, decision 017
    // step 18). Nothing the engine does depends on a function's or class's `name` (Fastify's one
    // plugin is named explicitly); a logged error's `type` and a stack trace may show esbuild's
    // renamed ones (`Client2`), and the trace maps back to the sources' files and lines
    // (--enable-source-maps).
    keepNames: false,
  });
  return path.join(outdir, "main.mjs");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const out = await buildEngine(process.argv[2]);
  console.log(`engine built: ${out}`);
}
