import { createCookie } from "@remix-run/node";
import { isLanguageCode, type LanguageCode } from "#protocol/languages";
import { THEMES, type ThemeName } from "#protocol/site-config";
import { isSecureRequest } from "./cookie-security.server";

/**
 * Visitor preferences (spec §3 "Preferences"): language, display currency and theme, each in its
 * own long-lived cookie so the switches work without JavaScript and without an account.
 */
const YEAR = 365 * 24 * 60 * 60;
const options = { path: "/", sameSite: "lax" as const, httpOnly: true, maxAge: YEAR };

export const languageCookie = createCookie("lang", options);
export const currencyCookie = createCookie("currency", options);
export const themeCookie = createCookie("theme", options);

export interface StoredPreferences {
  language: LanguageCode | null;
  currency: string | null;
  theme: ThemeName | null;
}

export async function readPreferences(request: Request): Promise<StoredPreferences> {
  const header = request.headers.get("cookie");
  const [language, currency, theme] = await Promise.all([languageCookie.parse(header), currencyCookie.parse(header), themeCookie.parse(header)]);
  return {
    language: isLanguageCode(language) ? language : null,
    currency: typeof currency === "string" && /^[a-z]{3}$/.test(currency) ? currency : null,
    theme: (THEMES as readonly unknown[]).includes(theme) ? (theme as ThemeName) : null,
  };
}

export async function serializePreference(request: Request, which: "language" | "currency" | "theme", value: string): Promise<string> {
  const cookie = which === "language" ? languageCookie : which === "currency" ? currencyCookie : themeCookie;
  return cookie.serialize(value, { secure: isSecureRequest(request) });
}
