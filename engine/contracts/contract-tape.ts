import type { Depth, PublicTrade } from "../../protocol/endpoints/market-data";
import { fromMinor, toMinor } from "../../protocol/money";
import { topics } from "../../protocol/realtime";
import type { Perpetual } from "../core/contracts/perpetual";
import type { DurableCore } from "../journal/durable-core";
import type { AppliedCommand } from "../journal/product";
import type { Publish } from "../realtime/realtime";
import { trimDecimal } from "./contract-config";
import { contractTradeId } from "./contract-rows";
import { contractState } from "./contract-views";

/** Trades kept per contract for its page (the rest are in `contract_trade`). */
const RECENT_TRADES = 60;

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
      tape = { trades: [], seq: this.now() * 1_000, depthChanged: false, stateChanged: false, lastBatch: 0, pendingTrades: [] };
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
    }
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
        tape.trades.unshift(trade);
        if (tape.trades.length > RECENT_TRADES) tape.trades.length = RECENT_TRADES;
        tape.pendingTrades.push({ batch, trade });
      }
    }
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
      if (!tape.depthChanged || tape.lastBatch > this.committed) continue;
      const perpetual = this.contracts.get(symbol);
      if (!perpetual) continue;
      tape.depthChanged = false;
      this.publish(topics.contractDepth(symbol), this.depth(perpetual, 20));
    }
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
