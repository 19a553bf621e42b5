import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import type { Depth, KlinePeriod, PublicTrade, SpotSymbol, WireCandle } from "../../protocol/endpoints/market-data";
import type { MarketItem } from "../../protocol/market";
import { fromMinor } from "../../protocol/money";
import { minorOf } from "../store/bulk-restore";
import { topics, type TopicPayloads } from "../../protocol/realtime";
import { applyTrade, changePercent, emptySeries, PERIODS, periodStart, ticker24h, type Candle, type Period } from "../core/market/candles";
import type { SpotMarket } from "../core/spot/spot-market";
import { runScript } from "../journal/group-commit";
import type { AppliedCommand } from "../journal/product";
import { CandleRows } from "./candle-rows";
import { candlesUpTo, loadLatestCandles, wireCandle, type CandleScales } from "./stored-candles";
import type { SpotService } from "../spot/spot-service";
import type { Database } from "../store/schema";

/**
 * Market data of the spot markets, kept in memory and fed by the core's event stream: candles of
 * every period, the latest trades, the book's sequence number, and 24 h tickers from the minute
 * candles. The stored candles (`spot_kline`) are a projection of the same trade events, written
 * behind the answer with the other query tables (market/candle-rows.ts); memory holds the latest
 * `KEEP` of each period, so reads never wait for them.
 *
 * Publishing follows the commit (ARCHITECTURE): trades are pushed once the batch that holds them
 * is committed (a member's refresh: realtime/member-pushes.ts); depth, candles and tickers are pushed as snapshots, at most
 * every `pushMs` per symbol, once nothing applied to the symbol is still waiting for its commit
 * (or after `maxHoldMs` under continuous load, when waiting would starve the subscribers).
 */
export type { Publish } from "../realtime/realtime";
import type { Publish } from "../realtime/realtime";

/** Candles of each period kept in memory per symbol (the minute series needs 1,440 for the ticker). */
const KEEP = 2_000;
const RECENT_TRADES = 60;

interface InternalTrade {
  id: string;
  price: bigint;
  quantity: bigint;
  side: "buy" | "sell";
  time: number;
}

interface SymbolData {
  market: SpotMarket;
  series: Record<Period, Candle[]>;
  trades: InternalTrade[];
  /** Grows with every command that changed the book. */
  seq: number;
  lastAppliedBatch: number;
  pendingTrades: Array<{ batch: number; trade: InternalTrade }>;
  depthChanged: boolean;
  changedPeriods: Set<Period>;
  tickerChanged: boolean;
  changedSince: number;
  /** Grows with every trade folded in: with the minute, it says whether the 24 h ticker moved. */
  tradeVersion: number;
  /** Grows with every change of the market's rules (fees, minimum, halt). */
  rulesVersion: number;
  /** The last 24 h ticker worked out, for the trade version and minute it was worked out at. */
  tickerMemo: { tradeVersion: number; minute: number; item: MarketItem } | null;
}

export interface MarketDataOptions {
  db: Kysely<Database>;
  spot: SpotService;
  now?: () => number;
  pushMs?: number;
  tickerPushMs?: number;
  maxHoldMs?: number;
}

export class MarketData {
  private readonly symbols = new Map<string, SymbolData>();
  private publish: Publish = () => {};
  private committed = 0;
  private timers: NodeJS.Timeout[] = [];

  private constructor(private readonly options: MarketDataOptions) {}

  static async start(options: MarketDataOptions): Promise<MarketData> {
    const data = new MarketData(options);
    for (const market of options.spot.markets.values()) await data.track(market);
    // A market an operator lists while the engine runs is tracked from its first order.
    options.spot.onMarketAdded((market) => data.track(market));
    options.spot.durable.onEvents((applied) => data.applied(applied));
    options.spot.durable.addBatchHooks({ afterCommit: (batch) => data.afterCommit(batch) });
    return data;
  }

  /**
   * Starts keeping a market's data. A book's sequence starts from the time it is tracked (in
   * thousandths of a millisecond), so it keeps growing across restarts: a browser that saw the
   * last engine's numbers takes the new ones.
   */
  private async track(market: SpotMarket): Promise<void> {
    const sd: SymbolData = {
      market,
      series: emptySeries(),
      trades: [],
      seq: this.now() * 1_000,
      lastAppliedBatch: 0,
      pendingTrades: [],
      depthChanged: false,
      changedPeriods: new Set(),
      tickerChanged: false,
      changedSince: 0,
      tradeVersion: 0,
      rulesVersion: 0,
      tickerMemo: null,
    };
    this.symbols.set(market.config.symbol, sd);
    await this.load(sd);
  }

  /** Starts pushing to sockets (the socket server exists only once the HTTP server does). */
  startPublishing(publish: Publish): void {
    this.publish = publish;
    const pushMs = this.options.pushMs ?? 250;
    this.timers.push(setInterval(() => this.pushSnapshots(), pushMs).unref());
    this.timers.push(setInterval(() => this.pushTickers(), this.options.tickerPushMs ?? 2_000).unref());
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }

  private now() {
    return this.options.now?.() ?? Date.now();
  }

  /** Loads the latest candles of every period, and the latest trades; rebuilds candles from trades if none were kept. */
  private async load(sd: SymbolData): Promise<void> {
    const { db } = this.options;
    const c = sd.market.config;
    await loadLatestCandles(db, { table: "spot_kline", symbol: c.symbol }, scalesOf(sd), () => KEEP, sd.series);
    const trades = await db
      .selectFrom("spot_trade")
      .select(["taker_order_id", "maker_order_id", "price", "quantity", "taker_side", "created_at"])
      .where("symbol", "=", c.symbol)
      .orderBy("id", "desc")
      .limit(RECENT_TRADES)
      .execute();
    sd.trades = trades.map((t) => ({
      id: publicTradeId(t.taker_order_id, t.maker_order_id),
      price: minorOf(String(t.price), c.priceScale),
      quantity: minorOf(String(t.quantity), c.amountScale),
      side: t.taker_side as "buy" | "sell",
      time: new Date(t.created_at as unknown as string).getTime(),
    }));
    const noCandles = PERIODS.every((period) => sd.series[period].length === 0);
    if (noCandles && trades.length > 0) await this.rebuildFromTrades(sd);
  }

  /** Candles for an install whose trades predate the candle table: fold every trade in, in order. */
  private async rebuildFromTrades(sd: SymbolData): Promise<void> {
    const c = sd.market.config;
    const all = await this.options.db
      .selectFrom("spot_trade")
      .select(["price", "quantity", "value", "created_at"])
      .where("symbol", "=", c.symbol)
      .orderBy("id")
      .execute();
    // The table has no candle of this market: the projection's rows, folded from every trade, are its candles.
    const stored = new CandleRows();
    for (const t of all) {
      const trade = {
        time: new Date(t.created_at as unknown as string).getTime(),
        price: minorOf(String(t.price), c.priceScale),
        quantity: minorOf(String(t.quantity), c.amountScale),
        value: minorOf(String(t.value), c.quoteAssetScale),
      };
      this.foldTrade(sd, trade);
      stored.addTrade(c.symbol, trade, scalesOf(sd));
    }
    await runScript(this.options.db, stored.statements());
  }

  private foldTrade(sd: SymbolData, trade: { time: number; price: bigint; quantity: bigint; value: bigint }): void {
    for (const period of PERIODS) {
      const series = sd.series[period];
      applyTrade(series, period, trade);
      if (series.length > KEEP + 200) series.splice(0, series.length - KEEP);
      sd.changedPeriods.add(period);
    }
    sd.tickerChanged = true;
    sd.tradeVersion++;
  }

  /** Every command the core applied (synchronously, before its commit): its trades and book changes. */
  private applied({ events, at, batch }: AppliedCommand): void {
    let sd: SymbolData | undefined;
    for (const e of events) {
      if (!("symbol" in e)) continue;
      if (e.type === "market.changed") {
        // Its rules (fees, minimum, halt) changed: what its reads show changed too.
        const changed = this.symbols.get(e.symbol);
        if (changed) changed.rulesVersion++;
        continue;
      }
      if (sd?.market.config.symbol !== e.symbol) {
        sd = this.symbols.get(e.symbol);
        if (!sd) continue;
        if (!sd.changedSince) sd.changedSince = at;
        sd.lastAppliedBatch = batch;
      }
      if (e.type === "trade") {
        this.foldTrade(sd, { time: at, price: e.price, quantity: e.quantity, value: e.value });
        const trade: InternalTrade = { id: publicTradeId(e.takerOrderId, e.makerOrderId), price: e.price, quantity: e.quantity, side: e.takerSide, time: at };
        sd.trades.unshift(trade);
        if (sd.trades.length > RECENT_TRADES) sd.trades.length = RECENT_TRADES;
        sd.pendingTrades.push({ batch, trade });
      } else if (e.type === "book.changed") {
        sd.seq++;
        sd.depthChanged = true;
      }
    }
  }

  private afterCommit(batch: number): void {
    this.committed = batch;
    for (const sd of this.symbols.values()) {
      if (!sd.pendingTrades.length) continue;
      const ready = sd.pendingTrades.filter((p) => p.batch <= batch);
      if (!ready.length) continue;
      sd.pendingTrades = sd.pendingTrades.filter((p) => p.batch > batch);
      const payload: TopicPayloads["trade"] = { symbol: sd.market.config.symbol, trades: ready.map((p) => this.wireTrade(sd, p.trade)).reverse() };
      this.publish(topics.trade(sd.market.config.symbol), payload);
    }
  }

  /** Depth and candle snapshots of symbols that changed, once their changes are committed. */
  private pushSnapshots(): void {
    const now = this.now();
    const maxHold = this.options.maxHoldMs ?? 1_000;
    for (const sd of this.symbols.values()) {
      if (!sd.depthChanged && !sd.changedPeriods.size) continue;
      if (sd.lastAppliedBatch > this.committed && now - sd.changedSince < maxHold) continue;
      const symbol = sd.market.config.symbol;
      if (sd.depthChanged) this.publish(topics.depth(symbol), this.depth(symbol, 20));
      for (const period of sd.changedPeriods) {
        const last = sd.series[period][sd.series[period].length - 1];
        if (!last) continue;
        const payload: TopicPayloads["kline"] = { symbol, period, candle: wireCandle(last, scalesOf(sd)) };
        this.publish(topics.kline(symbol, period), payload);
      }
      sd.depthChanged = false;
      sd.changedPeriods.clear();
      sd.changedSince = 0;
    }
  }

  private pushTickers(): void {
    let changed = false;
    for (const sd of this.symbols.values()) {
      if (sd.tickerChanged) changed = true;
      sd.tickerChanged = false;
    }
    if (!changed) return;
    const items = this.tickerItems();
    this.publish(topics.allSymbolDetail, items);
    this.publish(topics.index, items);
  }

  // ---- Reads (API) ----

  /** The tracked symbols, in the order they were tracked. */
  symbolNames(): IterableIterator<string> {
    return this.symbols.keys();
  }

  has(symbol: string): boolean {
    return this.symbols.has(symbol);
  }

  symbolInfo(symbol: string): SpotSymbol | undefined {
    const sd = this.symbols.get(symbol);
    if (!sd) return undefined;
    const c = sd.market.config;
    return {
      symbolName: c.symbol,
      coin_symbol: c.base,
      quote_symbol: c.quote,
      base_coin_scale: c.amountScale,
      coin_coin_scale: c.priceScale,
      baseAssetScale: c.baseAssetScale,
      quoteAssetScale: c.quoteAssetScale,
      tickSize: fromMinor(c.tickSize, c.priceScale),
      lotSize: fromMinor(c.lotSize, c.amountScale),
      minQuantity: fromMinor(c.minQuantity, c.amountScale),
      makerFee: fromMinor(c.makerFeeBps, 2),
      takerFee: fromMinor(c.takerFeeBps, 2),
      halted: sd.market.isHalted,
    };
  }

  symbolList(): SpotSymbol[] {
    return [...this.symbols.keys()].map((s) => this.symbolInfo(s)!);
  }

  depth(symbol: string, levels: number): Depth {
    const sd = this.symbols.get(symbol)!;
    const c = sd.market.config;
    const { bids, asks } = sd.market.book.depth(levels);
    const level = ([price, total]: [bigint, bigint]): [string, string] => [fromMinor(price, c.priceScale), fromMinor(total, c.amountScale)];
    return { symbol, seq: sd.seq, bids: bids.map(level), asks: asks.map(level) };
  }

  recentTrades(symbol: string, limit = 50): PublicTrade[] {
    const sd = this.symbols.get(symbol)!;
    return sd.trades.slice(0, limit).map((t) => this.wireTrade(sd, t));
  }

  /**
   * A version of what a symbol's public reads show (book, trades, rules, halt, the minute the 24 h
   * window slides by): equal versions, equal answers, so an answer can be kept until it changes.
   */
  answerVersion(symbol: string): string {
    const sd = this.symbols.get(symbol)!;
    return `${sd.seq}:${sd.tradeVersion}:${sd.rulesVersion}:${sd.market.isHalted ? 1 : 0}:${periodStart("1m", this.now())}`;
  }

  /**
   * The 24 h ticker of a symbol as a market item (null fields when it never traded). Worked out
   * over the day's minute candles once per trade and per minute, not per read.
   */
  tickerItem(symbol: string): MarketItem {
    const sd = this.symbols.get(symbol)!;
    const minute = periodStart("1m", this.now());
    const memo = sd.tickerMemo;
    if (memo && memo.tradeVersion === sd.tradeVersion && memo.minute === minute) return memo.item;
    const item = this.workOutTicker(sd);
    sd.tickerMemo = { tradeVersion: sd.tradeVersion, minute, item };
    return item;
  }

  private workOutTicker(sd: SymbolData): MarketItem {
    const symbol = sd.market.config.symbol;
    const c = sd.market.config;
    const t = ticker24h(sd.series["1m"], this.now());
    const price = (v: bigint) => fromMinor(v, c.priceScale);
    const base: MarketItem = {
      symbolName: c.symbol,
      coin_symbol: c.base,
      quote_symbol: c.quote,
      contract_type: 0,
      avatar: null,
      close: null,
      high: null,
      low: null,
      amount: null,
      vol: null,
      zdf: null,
    };
    if (t) {
      return {
        ...base,
        close: price(t.close),
        high: price(t.high),
        low: price(t.low),
        vol: fromMinor(t.volume, c.amountScale),
        amount: fromMinor(t.turnover, c.quoteAssetScale),
        zdf: changePercent(t.open, t.close),
      };
    }
    const last = this.lastPrice(symbol);
    // Quiet for a day: the last price stands, nothing traded.
    return last === undefined ? base : { ...base, close: price(last), high: price(last), low: price(last), vol: "0", amount: "0", zdf: "0" };
  }

  tickerItems(): MarketItem[] {
    return [...this.symbols.keys()].map((s) => this.tickerItem(s));
  }

  lastPrice(symbol: string): bigint | undefined {
    const sd = this.symbols.get(symbol)!;
    return sd.trades[0]?.price ?? sd.series["1m"][sd.series["1m"].length - 1]?.close;
  }

  /** Candles with open time ≤ `to`, the latest `limit`, oldest first: memory first, the database for older ones. */
  async klines(symbol: string, period: KlinePeriod, to: number, limit: number): Promise<WireCandle[]> {
    const sd = this.symbols.get(symbol)!;
    return candlesUpTo(this.options.db, { table: "spot_kline", symbol }, scalesOf(sd), sd.series[period], { period, to, limit });
  }

  private wireTrade(sd: SymbolData, t: InternalTrade): PublicTrade {
    const c = sd.market.config;
    return { id: t.id, price: fromMinor(t.price, c.priceScale), quantity: fromMinor(t.quantity, c.amountScale), side: t.side, time: t.time };
  }
}

/**
 * A public trade's id: stable (the same from the live event, a push and the stored row after a
 * restart) and opaque (it does not tell which orders traded). The core's trade event has no id of
 * its own, and the table's serial id is assigned only when the projector writes the row, after
 * the trade was pushed; but an order pair trades at most once (after a trade one of the two has
 * left the book, or the taker did not rest), so the pair names the trade.
 */
export function publicTradeId(takerOrderId: string, makerOrderId: string): string {
  return createHash("sha256").update(`${takerOrderId}:${makerOrderId}`).digest("base64url").slice(0, 22);
}

/** A spot market's candle scales: its price, its base amount, its quote asset. */
function scalesOf(sd: SymbolData): CandleScales {
  const c = sd.market.config;
  return { priceScale: c.priceScale, amountScale: c.amountScale, quoteScale: c.quoteAssetScale };
}
