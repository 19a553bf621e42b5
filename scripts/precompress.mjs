// Writes a gzip and a brotli copy beside every built browser asset worth compressing, so the web
// server sends them as they are instead of compressing each response (decision 037). The gzip of
// the larger files is zopfli's (standard gzip, ~3 % smaller than zlib's best: 2.7 KB of React and
// Remix's chunk); below 8 KB zopfli gains a few bytes at ~0.4 s a file (this build of it has a
// fixed cost per call), so zlib's best does those. Brotli at its highest quality is ~15–20 %
// smaller than gzip, for the browsers that accept it (all current ones).
// Usage: node scripts/precompress.mjs [assets dir]   (default: BUILD_DIR's, as remix.config.js);
// `npm run build` and `npm start` run it after Remix's build.
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { gzipAsync } from "@gfx/zopfli";

const BUILD_DIR = process.env.BUILD_DIR || "build";
export const ASSETS_DIR = BUILD_DIR === "build" ? "public/build" : path.join(BUILD_DIR, "public");
/** What is compressed: text assets; below 256 bytes a compressed copy saves nothing worth a file. */
const COMPRESSIBLE = /\.(js|css|json|svg|map)$/;
const MIN_BYTES = 256;
const ZOPFLI_FROM = 8 * 1024;
const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

async function* files(root) {
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const full = path.join(root, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

async function precompress(file) {
  const raw = await readFile(file);
  if (raw.length < MIN_BYTES) return { raw: raw.length, gz: raw.length, br: raw.length };
  const [gz, br] = await Promise.all([
    raw.length >= ZOPFLI_FROM ? gzipAsync(raw, { numiterations: 3 }) : gzip(raw, { level: 9 }),
    brotli(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
  ]);
  // A copy only where it is smaller; the server falls back to the file itself.
  if (gz.length < raw.length) await writeFile(`${file}.gz`, gz);
  if (br.length < raw.length) await writeFile(`${file}.br`, br);
  return { raw: raw.length, gz: Math.min(gz.length, raw.length), br: Math.min(br.length, raw.length) };
}

/** Compresses every asset under `dir`; returns the totals in bytes and the seconds it took. */
export async function precompressAssets(dir = ASSETS_DIR) {
  const started = Date.now();
  const queue = [];
  for await (const file of files(dir)) queue.push(file);
  const totals = { raw: 0, gz: 0, br: 0 };
  // Brotli runs on the thread pool, zlib's gzip too: a few files at a time keep both cores busy.
  const workers = Array.from({ length: Math.max(2, availableParallelism()) }, async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const sizes = await precompress(file);
      totals.raw += sizes.raw;
      totals.gz += sizes.gz;
      totals.br += sizes.br;
    }
  });
  await Promise.all(workers);
  return { ...totals, seconds: (Date.now() - started) / 1000 };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const dir = process.argv[2] ?? ASSETS_DIR;
  try {
    await stat(dir);
  } catch {
    console.error(`precompress: ${dir} does not exist (build first)`);
    process.exit(1);
  }
  const t = await precompressAssets(dir);
  const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
  console.log(`precompressed ${dir}: ${kb(t.raw)} → gzip ${kb(t.gz)}, brotli ${kb(t.br)} (${t.seconds.toFixed(1)} s)`);
}
