import { describe, expect, it } from "vitest";
import { ExchangeCore } from "../exchange/exchange-core";
import { accountValue, valueIn } from "./valuation";

function core(): ExchangeCore {
  const c = new ExchangeCore("v");
  c.listAsset("USDT", 6);
  c.listAsset("BTC", 8);
  c.listAsset("DOGE", 8);
  c.openMarket({
    symbol: "BTC/USDT",
    base: "BTC",
    quote: "USDT",
    priceScale: 2,
    amountScale: 4,
    baseAssetScale: 8,
    quoteAssetScale: 6,
    tickSize: 1n,
    lotSize: 1n,
    minQuantity: 1n,
    makerFeeBps: 0n,
    takerFeeBps: 0n,
  });
  for (const [id, kind, asset, amount] of [
    ["a", "spot", "USDT", "100000"],
    ["b", "spot", "BTC", "1"],
    ["c", "funding", "BTC", "0.12345678"],
    ["d", "funding", "USDT", "10.5"],
    ["e", "funding", "DOGE", "1000"],
  ] as const)
    c.apply({ type: "ledger.deposit", id, memberId: id === "a" || id === "b" ? id : "m", asset, kind, amount });
  // One trade at 60,000.01 gives BTC/USDT its last price.
  c.apply({
    type: "spot.place",
    memberId: "b",
    orderId: "s",
    symbol: "BTC/USDT",
    side: "sell",
    orderType: "limit",
    tif: "GTC",
    price: "60000.01",
    quantity: "0.5",
  });
  c.apply({
    type: "spot.place",
    memberId: "a",
    orderId: "t",
    symbol: "BTC/USDT",
    side: "buy",
    orderType: "limit",
    tif: "GTC",
    price: "60000.01",
    quantity: "0.1",
  });
  return c;
}

describe("valuation in USDT", () => {
  it("values a coin at its market's last price, exactly and truncated; USDT at itself; a coin without a market at nothing", () => {
    const c = core();
    // 0.12345678 BTC × 60,000.01 = 7,407.408034567… USDT → 7,407.408034 at USDT's 6 decimals.
    expect(valueIn(c, "BTC", 12_345_678n)).toBe(7_407_408_034n);
    expect(valueIn(c, "USDT", 10_500_000n)).toBe(10_500_000n);
    expect(valueIn(c, "DOGE", 100_000_000_000n)).toBeNull();
  });

  it("sums an account's posted balances that have a price", () => {
    const c = core();
    expect(accountValue(c, "m", "funding")).toBe(7_407_408_034n + 10_500_000n);
    expect(accountValue(c, "m", "spot")).toBe(0n);
  });
});
