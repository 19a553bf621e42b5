import * as z from "zod";
import type { SiteConfigRow } from "./config-tables";
import { FALLBACK_LANGUAGE, LANGUAGE_CODES } from "./languages";

/**
 * The public site configuration (spec §3 "Configuration"), stored as key/value rows in the
 * `site_config` table. Each key is parsed on its own: a value that does not parse falls back to
 * its default, so one bad row never takes the site down (spec §8 "config parse failures fall back
 * to defaults (language en)"). Secrets (client secret, broker password) are not part of it.
 */

export const THEMES = ["theme-night", "theme-day"] as const;
export type ThemeName = (typeof THEMES)[number];

const socialLinkSchema = z.object({
  name: z.string().min(1).max(40),
  url: z
    .string()
    .regex(/^https?:\/\//, "must begin with http or https")
    .max(300),
});

/** How an operator may write a switch (a JSON boolean, or one of these words). */
const SWITCH_WORDS: Record<string, boolean> = { true: true, false: false, "1": true, "0": false, on: true, off: false, yes: true, no: false };

export const siteConfigSchema = z.object({
  siteName: z.string().min(1).max(80).catch("Meridian Exchange"),
  shortName: z.string().min(1).max(30).catch("Meridian"),
  defaultLanguage: z.enum(LANGUAGE_CODES).catch(FALLBACK_LANGUAGE),
  areaCode: z
    .string()
    .regex(/^\d{1,4}$/)
    .catch("1"),
  exchangeRateCurrency: z
    .string()
    .regex(/^[a-z]{3}$/)
    .catch("usd"),
  moneySymbol: z.string().min(1).max(4).catch("$"),
  theme: z.enum(THEMES).catch("theme-night"),
  /**
   * Seconds an access token lives (spec §9: 604800). The engine issues tokens with it and answers
   * it as `expires_in`; the web tier refreshes a member's token when its age reaches it (decision 032).
   */
  tokenTime: z.coerce.number().int().min(10).max(31_536_000).catch(604800),
  /** Days the web session cookie lives after the last answer that wrote it (spec §9: 7). */
  cookieDays: z.coerce.number().int().min(1).max(400).catch(7),
  rateRefreshMs: z.coerce.number().int().min(10_000).catch(300_000),
  progressColor: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/)
    .catch("#f0b90b"),
  socialLinks: z.array(socialLinkSchema).max(20).catch([]),
  returnApplyEnabled: z.coerce.boolean().catch(false),
  /**
   * Whether members may ask for priority support (spec §6: "the support button when support is
   * enabled"): the button shows and the engine takes the request only while this is true.
   */
  supportEnabled: z
    .preprocess((v) => (typeof v === "string" || typeof v === "number" ? SWITCH_WORDS[String(v).trim().toLowerCase()] : v), z.boolean())
    .catch(true),
  supportEmail: z.string().email().catch("support@meridian.example"),
  reserveBtc: z.string().regex(/^\d+$/).catch("15000"),
  countries: z.string().regex(/^\d+$/).catch("130"),
});
export type SiteConfig = z.infer<typeof siteConfigSchema>;

/** JSON-valued keys are stored as JSON text; every other value is a plain string. */
const JSON_KEYS = new Set<keyof SiteConfig>(["socialLinks", "returnApplyEnabled"]);

/** Builds the typed site configuration from its rows; unknown keys are ignored. */
export function parseSiteConfig(rows: ReadonlyArray<Pick<SiteConfigRow, "config_key" | "config_value">>): SiteConfig {
  const raw: Record<string, unknown> = {};
  for (const row of rows) {
    const key = row.config_key as keyof SiteConfig;
    if (JSON_KEYS.has(key)) {
      try {
        raw[key] = JSON.parse(row.config_value);
      } catch {
        raw[key] = undefined; // falls back to the default through `.catch`
      }
    } else {
      raw[key] = row.config_value;
    }
  }
  return siteConfigSchema.parse(raw);
}

/** The defaults, used when the engine cannot be read at all. */
export const DEFAULT_SITE_CONFIG: SiteConfig = siteConfigSchema.parse({});
