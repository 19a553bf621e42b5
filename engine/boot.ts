import { startSnapshotPrefetch } from "./journal/snapshot-prefetch";

/**
 * The built engine's entry (`build/engine/main.mjs`): on Postgres it first starts reading the
 * newest core snapshot on another thread (snapshot-prefetch.ts), then loads the engine bundle
 * (`engine.mjs`, from engine/main.ts: ~0.25 s of module loading the read runs beside).
 */
const databaseUrl = process.env.DATABASE_URL;
if (databaseUrl) startSnapshotPrefetch(databaseUrl, new URL("./snapshot-prefetch.mjs", import.meta.url));
await import(new URL("./engine.mjs", import.meta.url).href);
