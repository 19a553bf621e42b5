import { describe, expect, it } from "vitest";
import type { SpotSymbolConfig } from "./spot-market";
import { listingProblem, symbolConfigProblem } from "./symbol-rules";

const BTC: SpotSymbolConfig = {
  symbol: "BTC/USDT",
  base: "BTC",
  quote: "USDT",
  priceScale: 2,
  amountScale: 6,
  baseAssetScale: 8,
  quoteAssetScale: 8,
  tickSize: 1n,
  lotSize: 1n,
  minQuantity: 10n,
  makerFeeBps: 10n,
  takerFeeBps: 20n,
};

describe("a market's rules", () => {
  it("accept a market that trades exactly", () => {
    expect(symbolConfigProblem(BTC)).toBeNull();
    expect(listingProblem(BTC)).toBeNull();
  });

  it.each([
    [{ priceScale: 3 }, /exceed the quote asset's scale/],
    [{ amountScale: 9, priceScale: 0, quoteAssetScale: 9 }, /base asset's scale/],
    [{ priceScale: -1 }, /priceScale must be a whole number/],
    [{ baseAssetScale: 19 }, /baseAssetScale must be a whole number/],
    [{ quote: "BTC" }, /different assets/],
    [{ tickSize: 0n }, /tick size/],
    [{ lotSize: -1n }, /lot size/],
    [{ makerFeeBps: 1_001n }, /maker fee/],
    [{ takerFeeBps: -1n }, /taker fee/],
  ])("refuse %o", (change, message) => {
    expect(symbolConfigProblem({ ...BTC, ...change })).toMatch(message);
    expect(listingProblem({ ...BTC, ...change })).toMatch(message);
  });

  it("refuse to list a minimum that is not a whole number of lots, yet open a stored market that has one", () => {
    expect(listingProblem({ ...BTC, lotSize: 100n, minQuantity: 10n })).toMatch(/at least one lot/);
    expect(listingProblem({ ...BTC, lotSize: 100n, minQuantity: 150n })).toMatch(/whole number of lots/);
    expect(symbolConfigProblem({ ...BTC, lotSize: 100n, minQuantity: 150n })).toBeNull();
  });
});
