import { describe, expect, it } from "vitest";
import type { MarketItem } from "#protocol/market";
import {
  describeChange,
  marketSearch,
  matchesSearch,
  parseMarketQuery,
  sortedBy,
  sortMarkets,
  tradingPath,
  viewMarkets,
  type MarketQuery,
} from "./market-list";
import { mergeTickers } from "./market-live";

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

const BTC = item("BTC/USDT", { close: "64000.5", zdf: "1.25", amount: "1200000" });
const ETH = item("ETH/USDT", { close: "3200", zdf: "-2.5", amount: "1200000.01" });
const WBTC = item("WBTC/USDT", { close: "63990", zdf: "0", amount: "90" });
const DOGE = item("DOGE/USDT", { close: "0.15", zdf: "10.5", amount: "99999999" });
const NEW = item("NEW/USDT"); // not traded yet: no ticker
const ALL = [BTC, ETH, WBTC, DOGE, NEW];
const symbols = (items: MarketItem[]) => items.map((i) => i.symbolName);
const query = (over: Partial<MarketQuery> = {}): MarketQuery => ({ tab: "spot", q: "", sort: null, dir: "desc", ...over });

describe("market list view", () => {
  it("reads the view from the URL and falls back to the default for anything unknown", () => {
    expect(parseMarketQuery(new URLSearchParams("tab=favourites&q=%20btc%20&sort=change&dir=asc"))).toEqual({
      tab: "favourites",
      q: "btc",
      sort: "change",
      dir: "asc",
    });
    expect(parseMarketQuery(new URLSearchParams("tab=x&sort=name&dir=up"))).toEqual(query());
    expect(parseMarketQuery(new URLSearchParams("sort=price&dir=sideways"))).toEqual(query({ sort: "price", dir: "desc" }));
    expect(parseMarketQuery(new URLSearchParams(`q=${"a".repeat(100)}`)).q).toHaveLength(40);
  });

  it("writes the view back without defaults, and a column click flips or starts high to low", () => {
    expect(marketSearch(query())).toBe("");
    expect(marketSearch(query({ tab: "favourites", q: "b tc", sort: "volume", dir: "asc" }))).toBe("?tab=favourites&q=b+tc&sort=volume&dir=asc");
    expect(sortedBy(query(), "price")).toMatchObject({ sort: "price", dir: "desc" });
    expect(sortedBy(query({ sort: "price", dir: "desc" }), "price")).toMatchObject({ sort: "price", dir: "asc" });
    expect(sortedBy(query({ sort: "price", dir: "asc" }), "price")).toMatchObject({ sort: "price", dir: "desc" });
    expect(sortedBy(query({ sort: "price", dir: "asc" }), "change")).toMatchObject({ sort: "change", dir: "desc" });
  });

  it("searches case-insensitively inside the coin or the symbol name (spec §5)", () => {
    expect(symbols(ALL.filter((i) => matchesSearch(i, "btc")))).toEqual(["BTC/USDT", "WBTC/USDT"]);
    expect(symbols(ALL.filter((i) => matchesSearch(i, "BtC")))).toEqual(["BTC/USDT", "WBTC/USDT"]);
    expect(symbols(ALL.filter((i) => matchesSearch(i, "eth_usdt")))).toEqual(["ETH/USDT"]);
    expect(symbols(ALL.filter((i) => matchesSearch(i, "usdt")))).toHaveLength(5);
    expect(ALL.filter((i) => matchesSearch(i, "xyz"))).toEqual([]);
  });

  it("sorts exactly by price, change and turnover, markets without a ticker last in both directions", () => {
    expect(symbols(sortMarkets(ALL, "price", "desc"))).toEqual(["BTC/USDT", "WBTC/USDT", "ETH/USDT", "DOGE/USDT", "NEW/USDT"]);
    expect(symbols(sortMarkets(ALL, "price", "asc"))).toEqual(["DOGE/USDT", "ETH/USDT", "WBTC/USDT", "BTC/USDT", "NEW/USDT"]);
    expect(symbols(sortMarkets(ALL, "change", "desc"))).toEqual(["DOGE/USDT", "BTC/USDT", "WBTC/USDT", "ETH/USDT", "NEW/USDT"]);
    expect(symbols(sortMarkets(ALL, "change", "asc"))).toEqual(["ETH/USDT", "WBTC/USDT", "BTC/USDT", "DOGE/USDT", "NEW/USDT"]);
    // 1200000.01 beats 1200000: decimal strings compare exactly.
    expect(symbols(sortMarkets(ALL, "volume", "desc"))).toEqual(["DOGE/USDT", "ETH/USDT", "BTC/USDT", "WBTC/USDT", "NEW/USDT"]);
    expect(symbols(sortMarkets(ALL, null, "desc"))).toEqual(symbols(ALL));
    // Ties (here: no ticker anywhere) keep the listed order.
    const untraded = [item("A/USDT"), item("B/USDT"), item("C/USDT")];
    expect(symbols(sortMarkets(untraded, "price", "asc"))).toEqual(["A/USDT", "B/USDT", "C/USDT"]);
  });

  it("shows only favourites on the favourites tab, then searches and sorts", () => {
    const favourites = ["DOGE/USDT", "BTC/USDT", "WBTC/USDT"];
    expect(symbols(viewMarkets(ALL, query(), favourites))).toEqual(symbols(ALL));
    expect(symbols(viewMarkets(ALL, query({ tab: "favourites" }), favourites))).toEqual(["BTC/USDT", "WBTC/USDT", "DOGE/USDT"]);
    expect(symbols(viewMarkets(ALL, query({ tab: "favourites", q: "btc", sort: "price", dir: "asc" }), favourites))).toEqual(["WBTC/USDT", "BTC/USDT"]);
    expect(viewMarkets(ALL, query({ tab: "favourites" }), null)).toEqual([]);
  });

  it("merges a live push into the known rows only, skipping malformed entries", () => {
    const rows = [BTC, ETH];
    const pushed = [
      { ...BTC, close: "65000", zdf: "2.8", avatar: null },
      { ...DOGE, close: "1" }, // not listed on this page
      { symbolName: "ETH/USDT", close: 3300 }, // malformed: a number for a price
      "garbage",
    ];
    const next = mergeTickers(rows, pushed);
    expect(next.map((r) => [r.symbolName, r.close, r.zdf])).toEqual([
      ["BTC/USDT", "65000", "2.8"],
      ["ETH/USDT", "3200", "-2.5"],
    ]);
    expect(next[1]).toBe(ETH);
    expect(mergeTickers(rows, [BTC, ETH])).toBe(rows); // nothing changed: same array, no re-render
    expect(mergeTickers(rows, null)).toBe(rows);
  });

  it("describes a change by sign and direction, not by colour alone", () => {
    expect(describeChange("1.25")).toEqual({ direction: "up", text: "+1.25%" });
    expect(describeChange("-0.5")).toEqual({ direction: "down", text: "-0.50%" });
    expect(describeChange("0")).toEqual({ direction: "flat", text: "0.00%" });
    // Issue 28 §4: two decimals always, cut toward zero; a change that rounds to nothing is flat.
    expect(describeChange("0.9")).toEqual({ direction: "up", text: "+0.90%" });
    expect(describeChange("-0.004")).toEqual({ direction: "flat", text: "0.00%" });
    expect(describeChange("-0.00")).toEqual({ direction: "flat", text: "0.00%" });
    expect(describeChange(null)).toEqual({ direction: null, text: "--" });
  });

  it("links a spot market to its trading page and a contract to the contract page", () => {
    expect(tradingPath(BTC)).toBe("/exchange/full-screen/BTC_USDT");
    expect(tradingPath({ symbolName: "BTC/USDT", contract_type: 1 })).toBe("/exchange/full-contract/BTC_USDT");
  });
});
