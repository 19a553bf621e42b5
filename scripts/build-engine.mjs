// The engine as operators run it: its TypeScript bundled into plain JavaScript modules (esbuild,
// the compiler Remix already uses), packages left to node_modules. A start no longer passes every
// module through tsx's loader thread: spawn → /healthz on an empty database went from ~1.3 s to
// ~0.65 s on the 2-core machine (decision 017, step 11). Development and tests keep running the
// TypeScript through tsx.
//
//   node scripts/build-engine.mjs [outdir]      (default build/engine)
//
// Two entries: the engine (`main.mjs`) and the snapshot worker (`snapshot-worker.mjs`), which
// `engine/journal/snapshot-builder.ts` starts beside the bundle it runs from.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

export const ENGINE_BUILD_DIR = "build/engine";

/** Bundles the engine into `outdir`; answers the path of its main module. */
export async function buildEngine(outdir = ENGINE_BUILD_DIR) {
  await build({
    entryPoints: { main: "engine/main.ts", "snapshot-worker": "engine/journal/snapshot-worker.ts" },
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: true,
    logLevel: "warning",
    // The bundle names its own modules, so a stack trace still reads as the source's (with --enable-source-maps).
    keepNames: true,
  });
  return path.join(outdir, "main.mjs");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const out = await buildEngine(process.argv[2]);
  console.log(`engine built: ${out}`);
}
