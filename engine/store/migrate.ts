import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from "kysely";
import * as m001 from "./migrations/001-config-tables";
import * as m002 from "./migrations/002-market-symbols";
import * as m003 from "./migrations/003-members";
import * as m004 from "./migrations/004-kyc";
import * as m005 from "./migrations/005-outbox-delivery";
import * as m006 from "./migrations/006-spot";
import * as m007 from "./migrations/007-favourites";
import * as m008 from "./migrations/008-stop-orders";
import * as m009 from "./migrations/009-klines";
import * as m010 from "./migrations/010-order-history-indexes";
import * as m011 from "./migrations/011-idempotency-fingerprint";
import * as m012 from "./migrations/012-market-halt";
import * as m013 from "./migrations/013-command-journal";
import * as m014 from "./migrations/014-projection-cursor";
import * as m015 from "./migrations/015-client-order-id";
import * as m016 from "./migrations/016-account-codes";
import * as m017 from "./migrations/017-coin-networks";
import * as m018 from "./migrations/018-simulated-chain";
import * as m019 from "./migrations/019-withdrawals";
import * as m020 from "./migrations/020-member-bills";
import * as m021 from "./migrations/021-deposits";
import * as m022 from "./migrations/022-withdrawal-addresses";
import * as m023 from "./migrations/023-wallet-mails";
import * as m024 from "./migrations/024-member-notices";
import * as m025 from "./migrations/025-honest-home-subtitle";
import * as m026 from "./migrations/026-support-requests";
import * as m027 from "./migrations/027-config-version";
import * as m028 from "./migrations/028-spot-order-held";
import * as m029 from "./migrations/029-journal-kept-answers";
import * as m031 from "./migrations/031-login-device-cookies";
import * as m032 from "./migrations/032-device-session-public-ids";
import * as m033 from "./migrations/033-address-pool";
import * as m034 from "./migrations/034-operators";
import * as m035 from "./migrations/035-member-freeze";
import * as m036 from "./migrations/036-console-search-indexes";
import * as m037 from "./migrations/037-contracts";
import * as m038 from "./migrations/038-contract-klines";
import * as m039 from "./migrations/039-contract-stops";
import * as m040 from "./migrations/040-contract-margin-mode";
import * as m041 from "./migrations/041-margin";
import * as m042 from "./migrations/042-spot-order-account";
import * as m043 from "./migrations/043-margin-order-index";
import * as m044 from "./migrations/044-pledge-loans";
import * as m045 from "./migrations/045-staking";
import * as m046 from "./migrations/046-subscriptions";

/** Migrations in order. Add a file under `migrations/` and list it here; never edit a shipped one. */
const MIGRATIONS: Record<string, Migration> = {
  "001-config-tables": m001,
  "002-market-symbols": m002,
  "003-members": m003,
  "004-kyc": m004,
  "005-outbox-delivery": m005,
  "006-spot": m006,
  "007-favourites": m007,
  "008-stop-orders": m008,
  "009-klines": m009,
  "010-order-history-indexes": m010,
  "011-idempotency-fingerprint": m011,
  "012-market-halt": m012,
  "013-command-journal": m013,
  "014-projection-cursor": m014,
  "015-client-order-id": m015,
  "016-account-codes": m016,
  "017-coin-networks": m017,
  "018-simulated-chain": m018,
  "019-withdrawals": m019,
  "020-member-bills": m020,
  "021-deposits": m021,
  "022-withdrawal-addresses": m022,
  "023-wallet-mails": m023,
  "024-member-notices": m024,
  "025-honest-home-subtitle": m025,
  "026-support-requests": m026,
  "027-config-version": m027,
  "028-spot-order-held": m028,
  "029-journal-kept-answers": m029,
  "031-login-device-cookies": m031,
  "032-device-session-public-ids": m032,
  "033-address-pool": m033,
  "034-operators": m034,
  "035-member-freeze": m035,
  "036-console-search-indexes": m036,
  "037-contracts": m037,
  "038-contract-klines": m038,
  "039-contract-stops": m039,
  "040-contract-margin-mode": m040,
  "041-margin": m041,
  "042-spot-order-account": m042,
  "043-margin-order-index": m043,
  "044-pledge-loans": m044,
  "045-staking": m045,
  "046-subscriptions": m046,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** Brings the schema up to date; the same migrations run on PGlite and on Postgres. */
export async function migrateToLatest(db: Kysely<unknown>): Promise<string[]> {
  // Independent migrations may land out of number order (parallel work): each runs once, in name order.
  // The migrator's own tables are looked for in the current schema only: without it, Kysely's check
  // sees another schema's `kysely_migration_lock` (parallel test suites, each in a schema of its
  // own) and skips creating its own.
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true, migrationTableSchema: rows[0]?.schema ?? "public" });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
