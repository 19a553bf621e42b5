import type { Kysely, Transaction } from "kysely";
import { parseSiteConfig, type SiteConfig } from "../../protocol/site-config";
import type { Database } from "../store/schema";

/**
 * The site configuration as the engine reads it: the `site_config` rows parsed by the protocol's
 * one rule (`parseSiteConfig`, the web tier's too), so a key means the same on both tiers and a
 * bad value falls back to its default on both. Read when needed (a login, a support request), never
 * cached: an operator's change holds from the next request.
 */
export async function readSiteConfig(db: Kysely<Database> | Transaction<Database>): Promise<SiteConfig> {
  return parseSiteConfig(await db.selectFrom("site_config").select(["config_key", "config_value"]).execute());
}
