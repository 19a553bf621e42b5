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
 * the home page's campaign headline, which marketing changes without a release.
 */
const CAMPAIGN: Record<string, { title: string; subtitle: string }> = {
  en: {
    title: "Trade crypto with confidence",
    subtitle: "Spot, contracts up to 100x, staking up to 18% a year and new-coin subscriptions, on one account.",
  },
  zh_cn: {
    title: "安心交易数字资产",
    subtitle: "现货、最高 100 倍合约、年化最高 18% 的质押与新币申购，一个账户全部搞定。",
  },
  zh_tw: {
    title: "安心交易數位資產",
    subtitle: "現貨、最高 100 倍合約、年化最高 18% 的質押與新幣申購，一個帳戶全部搞定。",
  },
  kr: {
    title: "믿을 수 있는 암호화폐 거래",
    subtitle: "현물, 최대 100배 선물, 연 최대 18% 스테이킹과 신규 코인 청약을 하나의 계정으로.",
  },
  jp: {
    title: "安心して暗号資産を取引",
    subtitle: "現物、最大100倍の先物、年利最大18%のステーキング、新規コインの申込をひとつのアカウントで。",
  },
  es: {
    title: "Opere criptomonedas con confianza",
    subtitle: "Spot, contratos de hasta 100x, staking de hasta un 18 % anual y suscripciones a nuevas monedas en una sola cuenta.",
  },
  de: {
    title: "Krypto mit Vertrauen handeln",
    subtitle: "Spot, Kontrakte bis 100x, Staking mit bis zu 18 % pro Jahr und Zeichnungen neuer Coins – mit einem Konto.",
  },
  fr: {
    title: "Tradez les cryptos en toute confiance",
    subtitle: "Spot, contrats jusqu'à 100x, staking jusqu'à 18 % par an et souscriptions aux nouveaux coins, sur un seul compte.",
  },
  tr: {
    title: "Kriptoda güvenle işlem yapın",
    subtitle: "Spot, 100x'e kadar kontratlar, yıllık %18'e varan staking ve yeni coin talepleri tek hesapta.",
  },
};

export const LANG_ENTRIES: Insertable<LangEntryTable>[] = Object.entries(CAMPAIGN).flatMap(([value, texts]) => [
  { value, label: "home.hero.title", text: texts.title },
  { value, label: "home.hero.subtitle", text: texts.subtitle },
]);
