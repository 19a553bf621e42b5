import { sql, type Kysely } from "kysely";
import type { DeploymentVariant } from "../../../protocol/variant";
import { variantSiteConfig } from "../../../protocol/variant";
import type { Database } from "../schema";
import { LANG_ENTRIES, LANGUAGES } from "./language-data";
import { FOOTER_LINKS, navRows } from "./navigation";
import { AREA_CODES, CLIENT_VERSIONS, CURRENCIES, DICT_ITEMS, IMAGE_ADDRESSES } from "./reference-data";

/** Site configuration written on first start (operators edit it afterwards). */
const SITE_DEFAULTS: Record<string, string> = {
  siteName: "Meridian Exchange",
  shortName: "Meridian",
  tokenTime: "604800",
  cookieDays: "7",
  rateRefreshMs: "300000",
  progressColor: "#f0b90b",
  supportEmail: "support@meridian.example",
  supportEnabled: "true",
  reserveBtc: "15000",
  countries: "130",
  socialLinks: JSON.stringify([
    { name: "X", url: "https://x.com/meridian_exchange" },
    { name: "Telegram", url: "https://t.me/meridian_exchange" },
    { name: "Discord", url: "https://discord.gg/meridian-exchange" },
    { name: "YouTube", url: "https://www.youtube.com/@meridian-exchange" },
  ]),
};

/**
 * Seeds the configuration tables on first start: each table is filled only while it is empty,
 * so an operator's later edits survive restarts. The variant's keys of the site configuration
 * are written at every start: they are deployment configuration, not content.
 */
export async function seedConfiguration(db: Kysely<Database>, variant: DeploymentVariant): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const empty = async (table: keyof Database) => {
      const row = await trx
        .selectFrom(table)
        .select(sql<number>`count(*)::int`.as("n"))
        .executeTakeFirstOrThrow();
      return row.n === 0;
    };
    if (await empty("nav_item")) {
      await trx.insertInto("nav_item").values(navRows()).execute();
      await sql`select setval(pg_get_serial_sequence('nav_item', 'id'), (select max(id) from nav_item))`.execute(trx);
    }
    if (await empty("footer_link")) await trx.insertInto("footer_link").values(FOOTER_LINKS).execute();
    if (await empty("sys_language")) await trx.insertInto("sys_language").values(LANGUAGES).execute();
    if (await empty("lang_entry")) await trx.insertInto("lang_entry").values(LANG_ENTRIES).execute();
    if (await empty("currency")) await trx.insertInto("currency").values(CURRENCIES).execute();
    if (await empty("dict_item")) await trx.insertInto("dict_item").values(DICT_ITEMS).execute();
    if (await empty("area_code")) await trx.insertInto("area_code").values(AREA_CODES).execute();
    if (await empty("client_version")) await trx.insertInto("client_version").values(CLIENT_VERSIONS).execute();
    if (await empty("image_address")) await trx.insertInto("image_address").values(IMAGE_ADDRESSES).execute();

    const defaults = Object.entries(SITE_DEFAULTS).map(([config_key, config_value]) => ({ config_key, config_value }));
    await trx
      .insertInto("site_config")
      .values(defaults)
      .onConflict((oc) => oc.column("config_key").doNothing())
      .execute();
    const fromVariant = Object.entries(variantSiteConfig(variant)).map(([config_key, config_value]) => ({ config_key, config_value }));
    await trx
      .insertInto("site_config")
      .values(fromVariant)
      .onConflict((oc) => oc.column("config_key").doUpdateSet({ config_value: (eb) => eb.ref("excluded.config_value") }))
      .execute();
  });
}
