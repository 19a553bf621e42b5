import { ACCOUNTS, type AccountName } from "../../../protocol/accounts";
import type { Insertable } from "kysely";
import type { AreaCodeTable, ClientVersionTable, CurrencyTable, DictItemTable, ImageAddressTable } from "../schema";

/**
 * Display currencies. Rates are US dollars to the currency, as an operator would enter them;
 * there is no FX feed on this network, so they are reference rates an operator updates
 * (docs/decisions/004-display-currency-rates.md).
 */
export const CURRENCIES: Insertable<CurrencyTable>[] = [
  { exchange_value: "usd", quote_currency: "USD", exchange_code: "$", rate: "1", sort: 10 },
  { exchange_value: "eur", quote_currency: "EUR", exchange_code: "€", rate: "0.92", sort: 20 },
  { exchange_value: "gbp", quote_currency: "GBP", exchange_code: "£", rate: "0.79", sort: 30 },
  { exchange_value: "cny", quote_currency: "CNY", exchange_code: "¥", rate: "7.24", sort: 40 },
  { exchange_value: "hkd", quote_currency: "HKD", exchange_code: "HK$", rate: "7.81", sort: 50 },
  { exchange_value: "twd", quote_currency: "TWD", exchange_code: "NT$", rate: "32.4", sort: 60 },
  { exchange_value: "jpy", quote_currency: "JPY", exchange_code: "JP¥", rate: "151.6", sort: 70 },
  { exchange_value: "krw", quote_currency: "KRW", exchange_code: "₩", rate: "1385", sort: 80 },
  { exchange_value: "try", quote_currency: "TRY", exchange_code: "₺", rate: "34.2", sort: 90 },
];

type Area = [code: string, name: string, dial: string, min: number, max: number];
const AREAS: Area[] = [
  ["US", "United States", "1", 10, 10],
  ["CA", "Canada", "1", 10, 10],
  ["GB", "United Kingdom", "44", 10, 10],
  ["DE", "Germany", "49", 10, 11],
  ["AT", "Austria", "43", 10, 13],
  ["CH", "Switzerland", "41", 9, 9],
  ["FR", "France", "33", 9, 9],
  ["ES", "Spain", "34", 9, 9],
  ["IT", "Italy", "39", 9, 10],
  ["NL", "Netherlands", "31", 9, 9],
  ["BE", "Belgium", "32", 9, 9],
  ["PT", "Portugal", "351", 9, 9],
  ["PL", "Poland", "48", 9, 9],
  ["SE", "Sweden", "46", 9, 9],
  ["TR", "Türkiye", "90", 10, 10],
  ["CN", "China", "86", 11, 11],
  ["HK", "Hong Kong", "852", 8, 8],
  ["MO", "Macao", "853", 8, 8],
  ["TW", "Taiwan", "886", 9, 9],
  ["JP", "Japan", "81", 10, 10],
  ["KR", "South Korea", "82", 9, 10],
  ["SG", "Singapore", "65", 8, 8],
  ["MY", "Malaysia", "60", 9, 10],
  ["TH", "Thailand", "66", 9, 9],
  ["VN", "Vietnam", "84", 9, 10],
  ["PH", "Philippines", "63", 10, 10],
  ["ID", "Indonesia", "62", 9, 12],
  ["IN", "India", "91", 10, 10],
  ["AE", "United Arab Emirates", "971", 9, 9],
  ["SA", "Saudi Arabia", "966", 9, 9],
  ["AU", "Australia", "61", 9, 9],
  ["NZ", "New Zealand", "64", 8, 10],
  ["BR", "Brazil", "55", 10, 11],
  ["MX", "Mexico", "52", 10, 10],
  ["AR", "Argentina", "54", 10, 11],
  ["CO", "Colombia", "57", 10, 10],
  ["CL", "Chile", "56", 9, 9],
  ["ZA", "South Africa", "27", 9, 9],
  ["NG", "Nigeria", "234", 10, 10],
  ["UA", "Ukraine", "380", 9, 9],
];
export const AREA_CODES: Insertable<AreaCodeTable>[] = AREAS.map(([country_code, country_name, dial_code, min, max], i) => ({
  country_code,
  country_name,
  dial_code,
  phone_min_length: min,
  phone_max_length: max,
  sort: (i + 1) * 10,
}));

type Dict = Record<string, Array<[value: string, text: string]>>;
const ACCOUNT_LABELS: Record<AccountName, string> = {
  total: "Total",
  funding: "Funding account",
  spot: "Spot account",
  margin: "Margin account",
  contract: "Contract account",
  merchant: "Merchant account",
};
const DICTS: Dict = {
  // The codes are protocol/accounts.ts's (decision 023).
  account_type: Object.entries(ACCOUNTS).map(([code, name]) => [code, ACCOUNT_LABELS[name]]),
  order_side: [
    ["1", "Buy"],
    ["2", "Sell"],
  ],
  order_type: [
    ["1", "Limit"],
    ["2", "Market"],
    ["3", "Stop-profit / stop-loss"],
  ],
  order_status: [
    ["0", "Open"],
    ["1", "Partially filled"],
    ["2", "Filled"],
    ["3", "Cancelled"],
  ],
  kline_period: [
    ["1min", "1m"],
    ["5min", "5m"],
    ["15min", "15m"],
    ["30min", "30m"],
    ["60min", "1h"],
    ["4hour", "4h"],
    ["1day", "1D"],
    ["1week", "1W"],
    ["1mon", "1M"],
  ],
  kyc_status: [
    ["0", "Not submitted"],
    ["1", "In review"],
    ["2", "Approved"],
    ["3", "Rejected"],
  ],
  withdraw_status: [
    ["0", "In review"],
    ["1", "Processing"],
    ["2", "Completed"],
    ["3", "Rejected"],
    ["4", "Cancelled"],
  ],
  repay_status: [
    ["0", "Returning"],
    ["1", "Returned"],
    ["2", "Not applied"],
  ],
};
export const DICT_ITEMS: Insertable<DictItemTable>[] = Object.entries(DICTS).flatMap(([dict_code, items]) =>
  items.map(([item_value, item_text], i) => ({
    dict_code,
    item_value,
    item_text,
    item_key: `dict.${dict_code}.${item_value}`,
    sort: (i + 1) * 10,
  })),
);

export const CLIENT_VERSIONS: Insertable<ClientVersionTable>[] = [
  {
    client_type: "android",
    version: "3.2.1",
    version_code: 30201,
    force_update: 0,
    download_url: "https://download.meridian.example/android/meridian-3.2.1.apk",
    release_note: "Faster market list; pulse pick countdown fixes.",
    released_at: "2026-10-28T08:00:00Z",
  },
  {
    client_type: "ios",
    version: "3.2.0",
    version_code: 30200,
    force_update: 0,
    download_url: "https://apps.apple.com/app/meridian-exchange/id0000000000",
    release_note: "Staking records and new-coin subscriptions.",
    released_at: "2026-10-20T08:00:00Z",
  },
  {
    client_type: "pc",
    version: "1.4.0",
    version_code: 10400,
    force_update: 0,
    download_url: "https://download.meridian.example/desktop/meridian-1.4.0.exe",
    release_note: "Full-screen spot and contract trading.",
    released_at: "2026-09-30T08:00:00Z",
  },
  {
    client_type: "h5",
    version: "3.2.1",
    version_code: 30201,
    force_update: 0,
    download_url: "/",
    release_note: "Mobile web.",
    released_at: "2026-10-28T08:00:00Z",
  },
];

export const IMAGE_ADDRESSES: Insertable<ImageAddressTable>[] = [
  { img_code: "logo_night", img_url: "/images/logo-night.svg", img_alt_key: "site.logo_alt", sort: 10 },
  { img_code: "logo_day", img_url: "/images/logo-day.svg", img_alt_key: "site.logo_alt", sort: 20 },
  { img_code: "home_hero", img_url: "/images/hero.svg", img_alt_key: "home.hero.image_alt", sort: 30 },
  { img_code: "default_avatar", img_url: "/images/avatar.svg", img_alt_key: "member.avatar_alt", sort: 40 },
];
