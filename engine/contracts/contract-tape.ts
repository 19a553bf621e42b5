import type { ContractPriceSource } from "../../protocol/endpoints/contracts";
import type { Depth, KlinePeriod, PublicTrade, WireCandle } from "../../protocol/endpoints/market-data";
import { fromMinor, toMinor } from "../../protocol/money";
import { candlesUpTo, loadLatestCandles, wireCandle } from "../market/stored-candles";
import { topics } from "../../protocol/realtime";
import type { Perpetual } from "../core/contracts/perpetual";
import type { MarketItem } from "../../protocol/market";
import { applyTrade, changePercent, emptySeries, PERIODS, periodStart, ticker24h, type Candle, type Period } from "../core/market/candles";
import { contractValue } from "../core/contracts/contract-math";
import type { DurableCore } from "../journal/durable-core";
import type { AppliedCommand } from "../journal/product";
import type { Publish } from "../realtime/realtime";
import { candleScalesOf, trimDecimal } from "./contract-config";
import { contractTradeId } from "./contract-rows";
import { contractState } from "./contract-views";

/** Trades kept per contract for its page (the rest are in `contract_trade`). */
const RECENT_TRADES = 60;
/** Candles kept per contract, price and period (older ones are read from `contract_kline`); a day of minutes for the 24 h ticker. */
const KEEP_CANDLES = 300;
const KEEP_MINUTES = 1_500;
const keepOf = (period: Period) => (period === "1m" ? KEEP_MINUTES : KEEP_CANDLES);
const SOURCES = ["last", "mark"] as const satisfies readonly ContractPriceSource[];

interface Trade {
  id: string;
  price: bigint;
  qty: bigint;
  side: "buy" | "sell";
  time: number;
}

interface Tape {
  trades: Trade[];
  /** Grows with every command that changed the book; starts from the time the tape did, so it grows across restarts. */
  seq: number;
  depthChanged: boolean;
  stateChanged: boolean;
  /** The last batch that changed the book, and trades waiting for their batch's commit. */
  lastBatch: number;
  pendingTrades: Array<{ batch: number; trade: Trade }>;
  /** The latest candles of the last price and of the mark, each period; those moved since pushed, and the last batch that moved one. */
  candles: Record<ContractPriceSource, Record<Period, Candle[]>>;
  movedCandles: Set<ContractPriceSource>;
  candleBatch: number;
  /** Grows with every trade: with the minute, it says whether the 24 h ticker moved. */
  tradeVersion: number;
  tickerMemo: { tradeVersion: number; minute: number; item: MarketItem } | null;
}

/**
 * The public side of each contract's market (issue 30): its latest trades and last price, its
 * book's depth, and their pushes (`contract_depth_*`, `contract_trade_*`, `contract_state_*`). It
 * follows the core's events like spot's market data does, and publishes only what a committed
 * batch holds: trades after their commit, depth and state at most every `pushMs` and once the
 * change is committed.
 */
export class ContractTape {
  private readonly tapes = new Map<string, Tape>();
  private publish: Publish = () => {};
  private committed = 0;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly durable: DurableCore,
    private readonly now: () => number = Date.now,
  ) {
    durable.onEvents((applied) => this.applied(applied));
    durable.addBatchHooks({ afterCommit: (batch) => this.afterCommit(batch) });
  }

  private get contracts(): ReadonlyMap<string, Perpetual> {
    return this.durable.core.contracts;
  }

  private tapeOf(symbol: string): Tape {
    let tape = this.tapes.get(symbol);
    if (!tape) {
      tape = {
        trades: [],
        seq: this.now() * 1_000,
        depthChanged: false,
        stateChanged: false,
        lastBatch: 0,
        pendingTrades: [],
        candles: { last: emptySeries(), mark: emptySeries() },
        movedCandles: new Set(),
        candleBatch: 0,
        tradeVersion: 0,
        tickerMemo: null,
      };
      this.tapes.set(symbol, tape);
    }
    return tape;
  }

  /** The latest trades of every contract, from the table (at start, before this run's trades). */
  async load(): Promise<void> {
    for (const [symbol, perpetual] of this.contracts) {
      const tape = this.tapeOf(symbol);
      if (tape.trades.length) continue;
      const rows = await this.durable.db
        .selectFrom("contract_trade")
        .select(["id", "price", "qty", "taker_side", "created_at"])
        .where("symbol", "=", symbol)
        .orderBy("seq", "desc")
        .limit(RECENT_TRADES)
        .execute();
      tape.trades = rows.map((r) => ({
        id: r.id,
        price: toMinor(trimDecimal(String(r.price)), perpetual.config.spec.priceScale),
        qty: BigInt(String(r.qty)),
        side: r.taker_side === "sell" ? "sell" : "buy",
        time: new Date(r.created_at as unknown as string).getTime(),
      }));
      await this.loadCandles(tape, perpetual);
    }
  }

  /** The latest candles of each price and period, from the table. */
  private async loadCandles(tape: Tape, perpetual: Perpetual): Promise<void> {
    for (const source of SOURCES)
      await loadLatestCandles(
        this.durable.db,
        { table: "contract_kline", symbol: perpetual.symbol, source },
        candleScalesOf(perpetual.config.spec),
        keepOf,
        tape.candles[source],
      );
  }

  /**
   * A contract's candles of its last or mark price, oldest first, opening at or before `to`:
   * from memory, and from the table for what memory no longer keeps.
   */
  klines(perpetual: Perpetual, source: ContractPriceSource, period: KlinePeriod, to: number, limit: number): Promise<WireCandle[]> {
    const series = { table: "contract_kline" as const, symbol: perpetual.symbol, source };
    return candlesUpTo(this.durable.db, series, candleScalesOf(perpetual.config.spec), this.tapeOf(perpetual.symbol).candles[source][period], {
      period,
      to,
      limit,
    });
  }

  /** Starts pushing (the socket server exists only once the HTTP server does). */
  startPublishing(publish: Publish, pushMs = 250, stateMs = 1_000): void {
    this.publish = publish;
    this.timers.push(setInterval(() => this.pushDepths(), pushMs).unref());
    this.timers.push(setInterval(() => this.pushStates(), stateMs).unref());
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }

  /** A contract's last trade price, if it ever traded. */
  lastPrice(symbol: string): bigint | undefined {
    return this.tapes.get(symbol)?.trades[0]?.price;
  }

  /**
   * The market items of the contracts of a kind (spec §3, `market/initData?type=1|2`): each one's
   * rolling 24 h ticker of its last price from the minute candles (volume in contracts, turnover in
   * the quote: USDT, or the contracts' face value in USD), worked out once per minute or trade.
   */
  tickerItems(kind: "linear" | "inverse"): MarketItem[] {
    const items: MarketItem[] = [];
    for (const perpetual of this.contracts.values()) if (perpetual.config.spec.kind === kind) items.push(this.tickerItem(perpetual));
    return items;
  }

  /** What `tickerItems` answers depends on: the contracts listed, their trades and the minute. */
  tickerVersion(): string {
    let version = `${periodStart("1m", this.now())}`;
    for (const symbol of this.contracts.keys()) version += `|${symbol}:${this.tapes.get(symbol)?.tradeVersion ?? 0}`;
    return version;
  }

  private tickerItem(perpetual: Perpetual): MarketItem {
    const tape = this.tapeOf(perpetual.symbol);
    const minute = periodStart("1m", this.now());
    const memo = tape.tickerMemo;
    if (memo && memo.tradeVersion === tape.tradeVersion && memo.minute === minute) return memo.item;
    const { config } = perpetual;
    const { spec } = config;
    const price = (v: bigint) => fromMinor(v, spec.priceScale);
    const t = ticker24h(tape.candles.last["1m"], this.now());
    const last = this.lastPrice(perpetual.symbol) ?? tape.candles.last["1m"].at(-1)?.close;
    const item: MarketItem = {
      symbolName: perpetual.symbol,
      coin_symbol: config.base,
      quote_symbol: config.quote,
      contract_type: spec.kind === "linear" ? 1 : 2,
      avatar: null,
      close: t ? price(t.close) : last === undefined ? null : price(last),
      high: t ? price(t.high) : null,
      low: t ? price(t.low) : null,
      vol: t ? t.volume.toString() : null,
      amount: t ? (spec.kind === "linear" ? fromMinor(t.turnover, spec.settleScale) : (t.volume * spec.multiplier).toString()) : null,
      zdf: t ? changePercent(t.open, t.close) : null,
    };
    tape.tickerMemo = { tradeVersion: tape.tradeVersion, minute, item };
    return item;
  }

  recentTrades(perpetual: Perpetual, limit = RECENT_TRADES): PublicTrade[] {
    return (this.tapes.get(perpetual.symbol)?.trades ?? []).slice(0, limit).map((t) => wireTrade(perpetual, t));
  }

  /** The top `levels` of the book, quantities in whole contracts. */
  depth(perpetual: Perpetual, levels: number): Depth {
    const scale = perpetual.config.spec.priceScale;
    const { bids, asks } = perpetual.market.depth(levels);
    const level = ([price, qty]: [bigint, bigint]): [string, string] => [fromMinor(price, scale), qty.toString()];
    return { symbol: perpetual.symbol, seq: this.tapeOf(perpetual.symbol).seq, bids: bids.map(level), asks: asks.map(level) };
  }

  private applied({ events, at, batch, seq }: AppliedCommand): void {
    let trades = 0;
    for (const e of events) {
      if (!e.type.startsWith("contract.") || !("symbol" in e)) continue;
      const tape = this.tapeOf(e.symbol);
      if (e.type === "contract.mark" || e.type === "contract.rules" || e.type === "contract.funding") {
        tape.stateChanged = true;
        if (e.type === "contract.mark" && e.mark !== null) this.fold(tape, "mark", { time: at, price: e.mark, quantity: 0n, value: 0n }, batch);
        continue;
      }
      if (e.type === "contract.placed" || e.type === "contract.order_ended" || e.type === "contract.trade") {
        tape.seq++;
        tape.depthChanged = true;
        tape.stateChanged = true;
        tape.lastBatch = batch;
      }
      if (e.type === "contract.trade") {
        const trade: Trade = { id: contractTradeId(seq, ++trades), price: e.price, qty: e.qty, side: e.takerSide, time: at };
        const perpetual = this.contracts.get(e.symbol);
        const value = perpetual ? contractValue(perpetual.config.spec, e.qty, e.price) : 0n;
        this.fold(tape, "last", { time: at, price: e.price, quantity: e.qty, value }, batch);
        tape.trades.unshift(trade);
        if (tape.trades.length > RECENT_TRADES) tape.trades.length = RECENT_TRADES;
        tape.pendingTrades.push({ batch, trade });
      }
    }
  }

  /** A trade (last) or a mark sample into every period's candle; memory keeps the latest `KEEP_CANDLES`. */
  private fold(tape: Tape, source: ContractPriceSource, sample: { time: number; price: bigint; quantity: bigint; value: bigint }, batch: number): void {
    for (const period of PERIODS) {
      const series = tape.candles[source][period];
      applyTrade(series, period, sample);
      if (series.length > keepOf(period) + 50) series.splice(0, series.length - keepOf(period));
    }
    tape.movedCandles.add(source);
    tape.candleBatch = batch;
    if (source === "last") tape.tradeVersion++;
  }

  private afterCommit(batch: number): void {
    this.committed = batch;
    for (const [symbol, tape] of this.tapes) {
      if (!tape.pendingTrades.length) continue;
      const ready = tape.pendingTrades.filter((p) => p.batch <= batch);
      if (!ready.length) continue;
      tape.pendingTrades = tape.pendingTrades.filter((p) => p.batch > batch);
      const perpetual = this.contracts.get(symbol);
      if (!perpetual) continue;
      this.publish(topics.contractTrade(symbol), { symbol, trades: ready.map((p) => wireTrade(perpetual, p.trade)).reverse() });
    }
  }

  private pushDepths(): void {
    for (const [symbol, tape] of this.tapes) {
      if (tape.movedCandles.size > 0 && tape.candleBatch <= this.committed) this.pushCandles(symbol, tape);
      if (!tape.depthChanged || tape.lastBatch > this.committed) continue;
      const perpetual = this.contracts.get(symbol);
      if (!perpetual) continue;
      tape.depthChanged = false;
      this.publish(topics.contractDepth(symbol), this.depth(perpetual, 20));
    }
  }

  /** Each moved price's current candle of every period (a follower keeps the one it shows). */
  private pushCandles(symbol: string, tape: Tape): void {
    const perpetual = this.contracts.get(symbol);
    if (!perpetual) return;
    for (const source of tape.movedCandles)
      for (const period of PERIODS) {
        const candle = tape.candles[source][period].at(-1);
        if (candle)
          this.publish(topics.contractKline(symbol, source, period), {
            symbol,
            source,
            period,
            candle: wireCandle(candle, candleScalesOf(perpetual.config.spec)),
          });
      }
    tape.movedCandles.clear();
  }

  private pushStates(): void {
    for (const [symbol, tape] of this.tapes) {
      if (!tape.stateChanged) continue;
      const perpetual = this.contracts.get(symbol);
      if (!perpetual) continue;
      tape.stateChanged = false;
      this.publish(topics.contractState(symbol), contractState(perpetual, this.lastPrice(symbol)));
    }
  }
}

function wireTrade(perpetual: Perpetual, t: Trade): PublicTrade {
  return { id: t.id, price: fromMinor(t.price, perpetual.config.spec.priceScale), quantity: t.qty.toString(), side: t.side, time: t.time };
}
