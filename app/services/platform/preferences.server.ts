import { createCookie } from "@remix-run/node";
import { isLanguageCode, type LanguageCode } from "#protocol/languages";
import { THEMES, type ThemeName } from "#protocol/site-config";
import { isSecureRequest } from "./cookie-security.server";

/**
 * Visitor preferences (spec §3 "Preferences"): language, display currency, theme and asset
 * visibility (showAllAssets: every coin, or small balances hidden), each in its own long-lived
 * cookie so the switches work without JavaScript.
 */
const YEAR = 365 * 24 * 60 * 60;
const options = { path: "/", sameSite: "lax" as const, httpOnly: true, maxAge: YEAR };

export const languageCookie = createCookie("lang", options);
export const currencyCookie = createCookie("currency", options);
export const themeCookie = createCookie("theme", options);
export const assetsCookie = createCookie("assets", options);

/** The wallet's asset visibility (spec §3 showAllAssets). */
export const ASSET_VISIBILITY = ["all", "hide-small"] as const;
export type AssetVisibility = (typeof ASSET_VISIBILITY)[number];

export interface StoredPreferences {
  language: LanguageCode | null;
  currency: string | null;
  theme: ThemeName | null;
  assets: AssetVisibility;
}

export async function readPreferences(request: Request): Promise<StoredPreferences> {
  const header = request.headers.get("cookie");
  const [language, currency, theme, assets] = await Promise.all([
    languageCookie.parse(header),
    currencyCookie.parse(header),
    themeCookie.parse(header),
    assetsCookie.parse(header),
  ]);
  return {
    language: isLanguageCode(language) ? language : null,
    currency: typeof currency === "string" && /^[a-z]{3}$/.test(currency) ? currency : null,
    theme: (THEMES as readonly unknown[]).includes(theme) ? (theme as ThemeName) : null,
    assets: assets === "hide-small" ? "hide-small" : "all",
  };
}

export async function serializePreference(request: Request, which: "language" | "currency" | "theme" | "assets", value: string): Promise<string> {
  const cookie = { language: languageCookie, currency: currencyCookie, theme: themeCookie, assets: assetsCookie }[which];
  return cookie.serialize(value, { secure: isSecureRequest(request) });
}
