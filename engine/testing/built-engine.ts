import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";

let built: string | null = null;

/**
 * The engine as operators run it (`scripts/build-engine.mjs`: one JavaScript bundle, packages
 * from node_modules), built once per process. The build goes to a folder of its own and is then
 * renamed to one named by its content (`.builds/engine-<hash>`, inside the repository: the bundle
 * finds its packages from where it lies), so parallel test workers never run a half-written file
 * and share one copy. Folders older than a day are removed. Answers the node arguments that run
 * it. Process-level tests and benchmarks start this, so they exercise what `npm start` runs,
 * snapshot worker included.
 */
export function builtEngineArgs(): string[] {
  if (!built) {
    const root = path.resolve(".builds");
    const scratch = path.join(root, `building-${process.pid}-${Date.now()}`);
    const result = spawnSync(process.execPath, ["scripts/build-engine.mjs", scratch], { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`the engine did not build: ${result.stderr || result.stdout}`);
    const hash = createHash("sha256");
    for (const file of ["main.mjs", "engine.mjs", "snapshot-worker.mjs", "snapshot-prefetch.mjs", "pglite-thread.mjs"])
      hash.update(readFileSync(path.join(scratch, file)));
    const dir = path.join(root, `engine-${hash.digest("hex").slice(0, 16)}`);
    if (existsSync(dir)) rmSync(scratch, { recursive: true, force: true });
    else {
      try {
        renameSync(scratch, dir);
      } catch {
        // Another worker renamed the same build first.
        rmSync(scratch, { recursive: true, force: true });
      }
    }
    for (const old of readdirSync(root))
      if (/^(engine|building)-/.test(old) && path.join(root, old) !== dir && Date.now() - statSync(path.join(root, old)).mtimeMs > 86_400_000)
        rmSync(path.join(root, old), { recursive: true, force: true });
    built = path.join(dir, "main.mjs");
  }
  return ["--enable-source-maps", built];
}
