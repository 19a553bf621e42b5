import type { Insertable } from "kysely";
import type { LangEntryTable, SysLanguageTable } from "../schema";

/** The language switcher (spec §1: nine languages). */
export const LANGUAGES: Insertable<SysLanguageTable>[] = [
  { value: "en", label: "English", text: "EN", sort: 10 },
  { value: "zh_cn", label: "简体中文", text: "简", sort: 20 },
  { value: "zh_tw", label: "繁體中文", text: "繁", sort: 30 },
  { value: "kr", label: "한국어", text: "KO", sort: 40 },
  { value: "jp", label: "日本語", text: "JA", sort: 50 },
  { value: "es", label: "Español", text: "ES", sort: 60 },
  { value: "de", label: "Deutsch", text: "DE", sort: 70 },
  { value: "fr", label: "Français", text: "FR", sort: 80 },
  { value: "tr", label: "Türkçe", text: "TR", sort: 90 },
];

/**
 * Operator texts that override the shipped locale files (served by `coin/open/lang/{lang}`):
 * the home page's campaign headline, which marketing changes without a release. (An operator may
 * add `home.hero.subtitle` too; none is seeded: the shipped one names no product, issue 14.)
 */
const CAMPAIGN: Record<string, { title: string }> = {
  en: {
    title: "Trade crypto with confidence",
  },
  zh_cn: {
    title: "安心交易数字资产",
  },
  zh_tw: {
    title: "安心交易數位資產",
  },
  kr: {
    title: "믿을 수 있는 암호화폐 거래",
  },
  jp: {
    title: "安心して暗号資産を取引",
  },
  es: {
    title: "Opere criptomonedas con confianza",
  },
  de: {
    title: "Krypto mit Vertrauen handeln",
  },
  fr: {
    title: "Tradez les cryptos en toute confiance",
  },
  tr: {
    title: "Kriptoda güvenle işlem yapın",
  },
};

export const LANG_ENTRIES: Insertable<LangEntryTable>[] = Object.entries(CAMPAIGN).flatMap(([value, texts]) => [
  { value, label: "home.hero.title", text: texts.title },
]);
