import type { Notice } from "#protocol/endpoints/notices";
import type { LanguageCode } from "#protocol/languages";
import type { ThemeName } from "#protocol/site-config";
import type { NavTree } from "./nav-tree";

/** What every page gets from the root loader: the shell around the page. */
export interface ShellData {
  lang: LanguageCode;
  langTag: string;
  /** The version of the language's texts (`app/lib/texts.ts`): the texts themselves travel apart, cached (decision 036). */
  textsVersion: string;
  theme: ThemeName;
  currency: DisplayCurrency;
  currencies: DisplayCurrency[];
  languages: Array<{ value: LanguageCode; label: string; text: string; tag: string }>;
  site: {
    name: string;
    shortName: string;
    logoNight: string;
    logoDay: string;
    supportEmail: string;
    socialLinks: Array<{ name: string; url: string }>;
    returnApplyEnabled: boolean;
    /** Members may ask for priority support (spec §6; the site's `supportEnabled`). */
    supportEnabled: boolean;
    reserveBtc: string;
    countries: string;
    /** Default phone area code of the deployment. */
    areaCode: string;
  };
  nav: NavTree;
  footer: Array<{ group: string; links: Array<{ code: string; path: string }> }>;
  year: number;
  /** Path patterns of the pages this build serves, to leave out links to pages not built yet. */
  servedPatterns: string[][];
  /** The logged-in member (a summary), or null for a visitor. */
  member: { uid: string; label: string; isMerchant: boolean } | null;
  /** A member's notifications (decision 031): the bell's unread count, and the stack of those new since this browser's last page. */
  notices: ShellNotices | null;
  toast: { id: string; type: "success" | "error" | "info"; key?: string; message?: string; values?: Record<string, string> } | null;
}

export interface DisplayCurrency {
  code: string;
  quote: string;
  symbol: string;
  /** US dollars to this currency, a decimal string. */
  rate: string;
}

/** What the shell knows of a member's notifications. */
export interface ShellNotices {
  unread: number;
  /** The member's newest notification id (null: none yet). */
  lastId: string | null;
  /** Unread ones new since the last page this browser showed, the newest four, oldest first. */
  stack: Notice[];
}
