import { describe, expect, it } from "vitest";
import type { SearchRow } from "../../protocol/endpoints/search";
import { hotList, matchRank, rankMatches } from "./market-search";

const row = (base: string, name: string, volume: string | null): SearchRow => ({
  symbol: `${base}/USDT`,
  base,
  quote: "USDT",
  name,
  contract_type: 0,
  price: volume === null ? null : "1",
  change: volume === null ? null : "0",
  volume,
});

const ROWS = [
  row("BTC", "Bitcoin", "900.5"),
  row("ETH", "Ethereum", "80"),
  row("ETC", "Ethereum Classic", "120"),
  row("BETH", "Beacon ETH", "1000"),
  row("SETH", "Staked Ether", "5"),
  row("NEW", "Newcoin", null),
];

describe("search ranking", () => {
  it("rates an exact coin or symbol 0, a prefix 1, anything inside 2, and no match null", () => {
    const eth = ROWS[1]!;
    expect(matchRank(eth, "eth")).toBe(0);
    expect(matchRank(eth, "ETH")).toBe(0);
    expect(matchRank(eth, "eth_usdt")).toBe(0);
    expect(matchRank(eth, "eth-usdt")).toBe(0);
    expect(matchRank(eth, "eth usdt")).toBe(0);
    expect(matchRank(eth, "et")).toBe(1);
    expect(matchRank(eth, "ether")).toBe(1);
    expect(matchRank(eth, "eth/u")).toBe(1);
    expect(matchRank(eth, "reum")).toBe(2);
    expect(matchRank(eth, "th/usdt")).toBe(2);
    expect(matchRank(eth, "btc")).toBeNull();
    expect(matchRank(eth, "  ")).toBeNull();
    // The I of a Turkish reader is matched like any other (no locale-dependent lowercasing).
    expect(matchRank(row("BITS", "Bits", "1"), "BIT")).toBe(1);
  });

  it("orders exact, then prefix, then inside, each by 24 h volume, untraded last", () => {
    expect(rankMatches(ROWS, "eth").map((r) => r.base)).toEqual(["ETH", "ETC", "BETH", "SETH"]);
    expect(rankMatches(ROWS, "e").map((r) => r.base)).toEqual(["ETC", "ETH", "BETH", "SETH", "NEW"]);
    expect(rankMatches(ROWS, "zzz")).toEqual([]);
  });

  it("lists the hottest markets by exact decimal volume, ties by symbol, untraded last", () => {
    expect(hotList(ROWS, 4).map((r) => r.base)).toEqual(["BETH", "BTC", "ETC", "ETH"]);
    expect(hotList(ROWS, 10).map((r) => r.base)).toEqual(["BETH", "BTC", "ETC", "ETH", "SETH", "NEW"]);
    expect(hotList([row("B", "B", "10"), row("A", "A", "10.0")], 2).map((r) => r.base)).toEqual(["A", "B"]);
  });
});
