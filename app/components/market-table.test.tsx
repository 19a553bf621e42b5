import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { MarketItem } from "#protocol/market";
import en from "~/locales/en.json";
import tr from "~/locales/tr.json";
import { I18nProvider } from "~/lib/i18n";
import { MarketTable } from "./market-table";

// Class names only (vanilla-extract compiles styles at build time, not in unit tests).
vi.mock("./market-table.css", () => {
  const names = [
    "wrap",
    "table",
    "th",
    "thStart",
    "sortLink",
    "sortLinkActive",
    "sortMark",
    "row",
    "td",
    "wide",
    "pairCell",
    "pair",
    "rowLink",
    "quote",
    "avatar",
    "avatarLetter",
    "arrow",
    "leadCell",
    "leadHead",
    "empty",
  ];
  return { ...Object.fromEntries(names.map((n) => [n, n])), change: { up: "up", down: "down", flat: "flat", none: "none" } };
});

const i18n = { lang: "en", messages: en };
const i18nTr = { lang: "tr", messages: tr };

const usd = { code: "usd", quote: "USD", symbol: "$", rate: "1" };
const eur = { code: "eur", quote: "EUR", symbol: "€", rate: "0.5" };
const item = (symbolName: string, ticker: Partial<MarketItem> = {}): MarketItem => {
  const [coin, quote] = symbolName.split("/") as [string, string];
  return {
    symbolName,
    coin_symbol: coin,
    quote_symbol: quote,
    close: null,
    high: null,
    low: null,
    amount: null,
    vol: null,
    zdf: null,
    avatar: null,
    contract_type: 0,
    ...ticker,
  };
};

function render(items: MarketItem[], currency = usd, language = i18n) {
  const html = renderToStaticMarkup(
    <I18nProvider lang={language.lang} messages={language.messages}>
      <MarketTable items={items} currency={currency} caption="Markets" empty="Nothing here" />
    </I18nProvider>,
  );
  const rows = [...html.matchAll(/<tr[^>]*data-symbol="([^"]+)"[^>]*>(.*?)<\/tr>/g)].map(([, symbol, row]) => ({
    symbol,
    cells: [...row!.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map(([, cell]) => cell!.replace(/<[^>]+>/g, "")),
  }));
  return { html, rows };
}

describe("MarketTable", () => {
  it("shows a market that has not traded with -- in every figure", () => {
    const { rows } = render([item("NEW/USDT")]);
    expect(rows).toEqual([{ symbol: "NEW/USDT", cells: ["NNEW/USDT", "--", "--", "--", "--", "--"] }]);
  });

  it("formats figures by spec §5 in the display currency, and a change by sign and arrow besides colour", () => {
    const btc = item("BTC/USDT", { close: "64000.123456", high: "65000", low: "63000.5", amount: "1234567890.5", zdf: "1.25" });
    const doge = item("DOGE/USDT", { close: "0.123456789", high: "0.13", low: "0.12", amount: "999.999", zdf: "-3.5" });
    const flat = item("TRX/USDT", { close: "0.12", high: "0.12", low: "0.12", amount: "12", zdf: "0" });
    const { rows } = render([btc, doge, flat]);
    expect(rows.map((r) => r.cells)).toEqual([
      ["BBTC/USDT", "$64,000.12", "▲+1.25%", "$65,000.00", "$63,000.50", "$1.23B"],
      ["DDOGE/USDT", "$0.12345678", "▼-3.50%", "$0.13", "$0.12", "$999.99"],
      ["TTRX/USDT", "$0.12", "0.00%", "$0.12", "$0.12", "$12.00"],
    ]);
    // Converted exactly at the display rate.
    expect(render([btc], eur).rows[0]!.cells[1]).toBe("€32,000.06");
  });

  it("writes numbers in the member's language: `.` for thousands and `,` for decimals in Turkish", () => {
    const btc = item("BTC/USDT", { close: "64000.123456", high: "65000", low: "63000.5", amount: "1234567890.5", zdf: "1.25" });
    const eth = item("ETH/BTC", { close: "0.05", zdf: "-0.5" });
    const { rows } = render([btc, eth], usd, i18nTr);
    expect(rows[0]!.cells).toEqual(["BBTC/USDT", "$64.000,12", "▲+1,25%", "$65.000,00", "$63.000,50", "$1,23B"]);
    expect(rows[1]!.cells.slice(1, 3)).toEqual(["0,05 BTC", "▼-0,50%"]);
  });

  it("shows a market quoted in another coin in that coin, not converted", () => {
    const { rows } = render([item("ETH/BTC", { close: "0.05", zdf: "0.5" })], eur);
    expect(rows[0]!.cells[1]).toBe("0.05 BTC");
  });

  it("says so in one row when there are no markets", () => {
    const { html } = render([]);
    expect(html).toMatch(/<td colSpan="6"[^>]*>Nothing here<\/td>/i);
  });
});
