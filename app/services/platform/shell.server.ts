import type { AppLoadContext } from "@remix-run/node";
import type { LanguageCode } from "#protocol/languages";
import { LANGUAGE_TAGS } from "#protocol/languages";
import { maskAccount } from "~/lib/mask";
import { buildNavTree } from "~/lib/nav-tree";
import { isServedPath, servedPatterns, type ManifestRoute } from "~/lib/route-patterns";
import type { DisplayCurrency, ShellData } from "~/lib/shell";
import type { StoredAuth } from "../account/auth.server";
import { detectLanguage } from "./i18n.server";
import { loadTexts } from "./messages.server";
import { readPreferences } from "./preferences.server";
import { loadRates, loadSite } from "./site.server";
import { readToast } from "./toast.server";

// The root's other server reads, imported from here: in the browser the root imports only this
// module's empty stand-in, which is bundled in the root's own chunk. Imported from their modules,
// their stand-ins were shared with the routes that use them (registration, the notifications
// page) and each was a file of its own on every page (decision 037, §7).
export { loadShellNotices } from "../account/notices.server";
export { withEngine } from "../engine/route.server";
export { rememberInviteCode } from "./session.server";

/**
 * Everything the page shell needs: texts in the visitor's language, theme, display currency,
 * navigation and footer from the configuration tables, and the pending toast.
 * Throws `EngineUnreachable` when the engine cannot be read (the root turns it into an error page).
 */
export async function loadShell(
  request: Request,
  context: AppLoadContext,
  member: StoredAuth["member"] | null,
): Promise<{ shell: ShellData; headers: Headers }> {
  const [site, rates, prefs, lang] = await Promise.all([loadSite(), loadRates(), readPreferences(request), detectLanguage(request)]);
  const [texts, { toast, header: toastCookie }] = await Promise.all([loadTexts(lang), readToast(request)]);
  const patterns = patternsOf(context.routeManifest);
  const isServed = (path: string) => isServedPath(patterns, path);

  const currencies: DisplayCurrency[] = rates.map((r) => ({
    code: r.exchange_value,
    quote: r.quote_currency,
    symbol: r.exchange_code,
    rate: r.rate,
  }));
  const fallbackCurrency: DisplayCurrency = { code: "usd", quote: "USD", symbol: site.config.moneySymbol, rate: "1" };
  const currency =
    currencies.find((c) => c.code === prefs.currency) ??
    currencies.find((c) => c.code === site.config.exchangeRateCurrency) ??
    currencies[0] ??
    fallbackCurrency;

  const image = (code: string, fallback: string) => site.images.find((i) => i.img_code === code)?.img_url ?? fallback;
  const footerGroups = new Map<string, Array<{ code: string; path: string }>>();
  for (const link of site.footer.filter((l) => l.link_show === 1).sort((a, b) => a.link_sort - b.link_sort)) {
    if (!/^https?:\/\//i.test(link.link_path) && !isServed(link.link_path)) continue;
    const group = footerGroups.get(link.group_code) ?? [];
    group.push({ code: link.link_code, path: link.link_path });
    footerGroups.set(link.group_code, group);
  }

  const shell: ShellData = {
    lang,
    langTag: LANGUAGE_TAGS[lang],
    textsVersion: texts.version,
    theme: prefs.theme ?? site.config.theme,
    currency,
    currencies,
    languages: site.languages.map((l) => ({ value: l.value, label: l.label, text: l.text, tag: LANGUAGE_TAGS[l.value as LanguageCode] })),
    site: {
      name: site.config.siteName,
      shortName: site.config.shortName,
      logoNight: image("logo_night", "/images/logo-night.svg"),
      logoDay: image("logo_day", "/images/logo-day.svg"),
      supportEmail: site.config.supportEmail,
      socialLinks: site.config.socialLinks,
      returnApplyEnabled: site.config.returnApplyEnabled,
      supportEnabled: site.config.supportEnabled,
      reserveBtc: site.config.reserveBtc,
      countries: site.config.countries,
      areaCode: site.config.areaCode,
    },
    nav: buildNavTree(site.nav, isServed),
    footer: [...footerGroups].map(([group, links]) => ({ group, links })),
    year: new Date().getUTCFullYear(),
    servedPatterns: patterns,
    member: member ? { uid: member.uid, label: maskAccount(member.email ?? member.phone ?? member.uid), isMerchant: member.is_merchant === 2 } : null,
    notices: null,
    toast,
  };
  const headers = new Headers();
  if (toastCookie) headers.append("set-cookie", toastCookie);
  return { shell, headers };
}

let memo: { manifest: object; patterns: string[][] } | undefined;
/** Patterns of the served pages, worked out once per build. */
function patternsOf(manifest: Record<string, ManifestRoute | undefined> | undefined): string[][] {
  if (!manifest) return [];
  if (memo?.manifest !== manifest) memo = { manifest, patterns: servedPatterns(manifest) };
  return memo.patterns;
}
