import type { Side, TimeInForce } from "../matching/order-book";
import type { ExchangeCore } from "./exchange-core";

/**
 * The whole core as plain data: what a snapshot stores and a start loads instead of rebuilding
 * from the query tables. Integers (minor units) are decimal texts; orders are tuples, in the
 * order that rebuilds the same queues (book: level by level, oldest first; stops: as placed).
 */
export interface CoreSnapshot {
  version: 1;
  /** The last command it includes: the journal's tail starts after it. */
  seq: number;
  idPrefix: string;
  assets: Array<[code: string, scale: number]>;
  markets: MarketSnapshot[];
  accounts: Array<[key: string, posted: string, held: string]>;
  holds: Array<[id: string, account: string, asset: string, remaining: string]>;
}

export interface MarketSnapshot {
  symbol: string;
  base: string;
  quote: string;
  priceScale: number;
  amountScale: number;
  tickSize: string;
  lotSize: string;
  minQuantity: string;
  makerFeeBps: string;
  takerFeeBps: string;
  halted: boolean;
  lastPrice: string | null;
  orders: Array<[orderId: string, memberId: string, side: Side, price: string, remaining: string]>;
  stops: StopSnapshot[];
}

export interface StopSnapshot {
  orderId: string;
  memberId: string;
  side: Side;
  type: "limit" | "market";
  tif: TimeInForce;
  price?: string;
  quantity?: string;
  money?: string;
  stopProfitPrice?: string;
  stopLossPrice?: string;
}

const text = (v: bigint | undefined) => (v === undefined ? undefined : v.toString());
const big = (v: string | undefined) => (v === undefined ? undefined : BigInt(v));

export function takeSnapshot(core: ExchangeCore, seq: number): CoreSnapshot {
  const markets: MarketSnapshot[] = [];
  for (const market of core.markets.values()) {
    const c = market.config;
    markets.push({
      symbol: c.symbol,
      base: c.base,
      quote: c.quote,
      priceScale: c.priceScale,
      amountScale: c.amountScale,
      tickSize: c.tickSize.toString(),
      lotSize: c.lotSize.toString(),
      minQuantity: c.minQuantity.toString(),
      makerFeeBps: c.makerFeeBps.toString(),
      takerFeeBps: c.takerFeeBps.toString(),
      halted: market.isHalted,
      lastPrice: market.lastPrice === undefined ? null : market.lastPrice.toString(),
      orders: [...market.book.resting()].map((o) => [o.id, o.memberId, o.side, o.price.toString(), o.remaining.toString()]),
      stops: [...market.waitingOrders()].map((s) => ({
        orderId: s.orderId,
        memberId: s.memberId,
        side: s.side,
        type: s.type,
        tif: s.tif,
        price: text(s.price),
        quantity: text(s.quantity),
        money: text(s.money),
        stopProfitPrice: text(s.stopProfitPrice),
        stopLossPrice: text(s.stopLossPrice),
      })),
    });
  }
  return {
    version: 1,
    seq,
    idPrefix: core.idPrefix,
    assets: [...core.assetScales],
    markets,
    accounts: [...core.ledger.accounts()].map(([key, posted, held]) => [key, posted.toString(), held.toString()]),
    holds: [...core.ledger.openHolds()].map(([id, account, asset, remaining]) => [id, account, asset, remaining.toString()]),
  };
}

export function restoreSnapshot(core: ExchangeCore, s: CoreSnapshot): void {
  if (s.version !== 1) throw new Error(`snapshot version ${s.version} is not known`);
  for (const [code, scale] of s.assets) core.listAsset(code, scale);
  for (const [key, posted, held] of s.accounts) core.ledger.restoreBalance(key, BigInt(posted), BigInt(held));
  for (const [id, account, asset, remaining] of s.holds) core.ledger.restoreHold(id, account, asset, BigInt(remaining));
  for (const m of s.markets) {
    core.openMarket(
      {
        symbol: m.symbol,
        base: m.base,
        quote: m.quote,
        priceScale: m.priceScale,
        amountScale: m.amountScale,
        baseAssetScale: core.scaleOf(m.base),
        quoteAssetScale: core.scaleOf(m.quote),
        tickSize: BigInt(m.tickSize),
        lotSize: BigInt(m.lotSize),
        minQuantity: BigInt(m.minQuantity),
        makerFeeBps: BigInt(m.makerFeeBps),
        takerFeeBps: BigInt(m.takerFeeBps),
      },
      m.halted,
    );
    core.markets.get(m.symbol)!.restoreLastPrice(m.lastPrice === null ? undefined : BigInt(m.lastPrice));
    for (const [orderId, memberId, side, price, remaining] of m.orders) core.restoreOrder(m.symbol, { orderId, memberId, side, price: BigInt(price), remaining: BigInt(remaining) });
    for (const st of m.stops) {
      core.restoreStop(m.symbol, {
        orderId: st.orderId,
        memberId: st.memberId,
        side: st.side,
        type: st.type,
        tif: st.tif,
        price: big(st.price),
        quantity: big(st.quantity),
        money: big(st.money),
        stopProfitPrice: big(st.stopProfitPrice),
        stopLossPrice: big(st.stopLossPrice),
      });
    }
  }
  core.restoreSeq(s.seq);
}
