import { randomBytes } from "node:crypto";
import pg from "pg";
import { loadVariant } from "../../variants/index";
import { openStore, type Store } from "../store/db";
import { migrateToLatest } from "../store/migrate";
import { seedConfiguration } from "../store/seed/seed";

/**
 * The databases an integration suite runs against: embedded PGlite always, and the real Postgres
 * named by TEST_DATABASE_URL (or DATABASE_URL) when one is set. Each Postgres run works in a
 * schema of its own, dropped afterwards, so suites never see each other's rows.
 */
export function testStoreKinds(): Array<"pglite" | "postgres"> {
  return postgresUrl() ? ["pglite", "postgres"] : ["pglite"];
}

function postgresUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;
}

export interface TestStore extends Store {
  /** Postgres: a URL that opens another connection to this store's schema (as a worker does). */
  databaseUrl?: string;
  dispose(): Promise<void>;
}

export async function openTestStore(kind: "pglite" | "postgres", variant = "default"): Promise<TestStore> {
  let dropSchema: (() => Promise<void>) | undefined;
  let databaseUrl: string | undefined;
  let store: Store;
  if (kind === "postgres") {
    const url = postgresUrl();
    if (!url) throw new Error("no Postgres URL for the integration suite");
    const schema = `test_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    dropSchema = async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    };
    store = await openStore({ databaseUrl: url, dataDir: "unused", schema });
    const own = new URL(url);
    own.searchParams.set("options", `-c search_path=${schema}`);
    databaseUrl = own.toString();
  } else {
    store = await openStore({ dataDir: "memory://" });
  }
  await migrateToLatest(store.db as never);
  await seedConfiguration(store.db, loadVariant(variant));
  return {
    ...store,
    ...(databaseUrl ? { databaseUrl } : {}),
    async dispose() {
      await store.close();
      await dropSchema?.();
    },
  };
}
