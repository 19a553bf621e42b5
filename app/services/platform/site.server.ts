import type * as z from "zod";
import {
  CONFIG_TABLES,
  PAGE_SIZE_ALL,
  type ConfigTableId,
  type CurrencyEntry,
  type FooterLink,
  type ImageAddress,
  type LanguageOption,
  type NavItem,
} from "#protocol/config-tables";
import { endpoints } from "#protocol/endpoints";
import { FALLBACK_LANGUAGE } from "#protocol/languages";
import { parseSiteConfig, type SiteConfig } from "#protocol/site-config";
import { callEndpoint } from "../engine/api.server";
import { createCache } from "./cache.server";

export interface SiteSnapshot {
  config: SiteConfig;
  nav: NavItem[];
  footer: FooterLink[];
  languages: LanguageOption[];
  images: ImageAddress[];
}

/**
 * How long the site configuration is used before the engine is asked again. Asking is cheap: the
 * engine answers from memory and, for an unchanged configuration, "not modified" to the tags of
 * the answers kept (decision 035), so an operator's change shows on every page within this time.
 */
const CONFIG_TTL_MS = 5_000;
const siteCache = createCache<SiteSnapshot>(() => CONFIG_TTL_MS);
let rateTtlMs = 300_000;
const rateCache = createCache<CurrencyEntry[]>(() => rateTtlMs);

/** Every row of a configuration table, each checked against its schema; a bad row is skipped. */
async function readTable<T extends ConfigTableId>(table: T): Promise<Array<z.output<(typeof CONFIG_TABLES)[T]>>> {
  const page = await callEndpoint(
    endpoints.getData,
    { params: { tableId: table }, query: { pageSize: String(PAGE_SIZE_ALL), column: "id", order: "asc" } },
    { lang: FALLBACK_LANGUAGE },
  );
  const schema = CONFIG_TABLES[table];
  const rows: Array<z.output<(typeof CONFIG_TABLES)[T]>> = [];
  for (const record of page.records) {
    const parsed = schema.safeParse(record);
    if (parsed.success) rows.push(parsed.data as z.output<(typeof CONFIG_TABLES)[T]>);
    else console.warn(`skipping a bad ${table} row`, record.id, parsed.error.issues[0]?.message);
  }
  return rows;
}

/** The site's configuration tables, asked again every 5 s (`CONFIG_TTL_MS`). */
export function loadSite(): Promise<SiteSnapshot> {
  return siteCache.get("site", async () => {
    const [configRows, nav, footer, languages, images] = await Promise.all([
      readTable("site_config"),
      readTable("nav_item"),
      readTable("footer_link"),
      readTable("sys_language"),
      readTable("image_address"),
    ]);
    const config = parseSiteConfig(configRows);
    rateTtlMs = config.rateRefreshMs;
    return { config, nav, footer, languages: languages.sort((a, b) => a.sort - b.sort), images };
  });
}

/** Display-currency rates from `open/getCoinRate`, refreshed every `rateRefreshMs` (spec §9: 300000). */
export function loadRates(): Promise<CurrencyEntry[]> {
  return rateCache.get("rates", () => callEndpoint(endpoints.coinRates, {}, { lang: FALLBACK_LANGUAGE }));
}

/** For tests: forget cached configuration. */
export function clearSiteCache() {
  siteCache.clear();
  rateCache.clear();
}
