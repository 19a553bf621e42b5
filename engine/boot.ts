import path from "node:path";
import { SNAPSHOT_FILE, startSnapshotPrefetch } from "./journal/snapshot-prefetch";

/**
 * The built engine's entry (`build/engine/main.mjs`): it first starts reading the newest core
 * snapshot on another thread (snapshot-prefetch.ts: the row on Postgres, the data folder's copy
 * on PGlite), then loads the engine bundle (`engine.mjs`, from engine/main.ts: ~0.25 s of module
 * loading the read runs beside). `DATA_DIR` defaults as in engine/config.ts; a wrong guess is
 * only an offer the start does not take.
 */
const databaseUrl = process.env.DATABASE_URL;
const dataDir = process.env.DATA_DIR || "./data";
if (databaseUrl || !dataDir.startsWith("memory://"))
  startSnapshotPrefetch(databaseUrl ? { databaseUrl } : { file: path.join(dataDir, SNAPSHOT_FILE) }, new URL("./snapshot-prefetch.mjs", import.meta.url));
await import(new URL("./engine.mjs", import.meta.url).href);
