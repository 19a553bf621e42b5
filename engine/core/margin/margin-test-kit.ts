import { toMinor } from "../../../protocol/money";
import { ExchangeCore } from "../exchange/exchange-core";
import { MARGIN_RATE_SCALE } from "./margin";

/** A core with BTC/USDT and ETH/USDT spot markets, lending pools of USDT, BTC and ETH, and both pairs on margin (the tests' and the margin bench's). */
export function marginCore(prefix = "m"): ExchangeCore {
  const core = new ExchangeCore(prefix);
  for (const [asset, scale] of [
    ["USDT", 8],
    ["BTC", 8],
    ["ETH", 8],
  ] as const)
    core.listAsset(asset, scale);
  for (const base of ["BTC", "ETH"])
    core.openMarket({
      symbol: `${base}/USDT`,
      base,
      quote: "USDT",
      priceScale: 2,
      amountScale: 4,
      baseAssetScale: 8,
      quoteAssetScale: 8,
      tickSize: 1n,
      lotSize: 1n,
      minQuantity: 1n,
      makerFeeBps: 0n,
      takerFeeBps: 0n,
    });
  for (const [asset, limit, min] of [
    ["USDT", "1000000", "1"],
    ["BTC", "20", "0.0001"],
    ["ETH", "300", "0.001"],
  ] as const)
    core.margin.configurePool({ asset, hourlyRate: toMinor("0.000005", MARGIN_RATE_SCALE), limit: toMinor(limit, 8), minBorrow: toMinor(min, 8) });
  core.margin.configurePair({ symbol: "BTC/USDT", base: "BTC", quote: "USDT", maxLeverage: 10 });
  core.margin.configurePair({ symbol: "ETH/USDT", base: "ETH", quote: "USDT", maxLeverage: 5 });
  return core;
}

/** Two market makers trade `quantity` at `price` on a spot market: the coin's last price (what margin values it at). */
export function tradeAt(core: ExchangeCore, symbol: string, price: string, quantity = "0.001", id = `${symbol}-${price}-${core.lastSeq}`): void {
  const [base] = symbol.split("/") as [string];
  core.apply({ type: "ledger.deposit", id: `${id}-b`, memberId: "@mm-sell", asset: base, kind: "spot", amount: quantity });
  const cost = (Number(price) * Number(quantity)).toFixed(8);
  core.apply({ type: "ledger.deposit", id: `${id}-q`, memberId: "@mm-buy", asset: "USDT", kind: "spot", amount: cost });
  const sell = core.apply({
    type: "spot.place",
    memberId: "@mm-sell",
    orderId: `${id}-s`,
    symbol,
    side: "sell",
    orderType: "limit",
    tif: "GTC",
    price,
    quantity,
  });
  const buy = core.apply({ type: "spot.place", memberId: "@mm-buy", orderId: `${id}-k`, symbol, side: "buy", orderType: "limit", tif: "IOC", price, quantity });
  if (sell.code !== "OK" || buy.code !== "OK") throw new Error(`the trade at ${price} was refused: ${sell.code} ${buy.code}`);
  // Whatever did not trade (a better resting order) is taken back.
  core.apply({ type: "spot.cancel", memberId: "@mm-sell", orderId: `${id}-s` });
}
