import type { Kysely } from "kysely";
import { fromMinor, toMinor } from "../../protocol/money";
import { indexPrice, type IndexSource } from "../core/contracts/contract-prices";
import type { DurableCore } from "../journal/durable-core";
import type { Database } from "../store/schema";
import { contractRows } from "./contract-config";
import type { ContractService } from "./contract-service";

/** A spot market's last trade as the loop saw it: its price (decimal text) and when. */
interface LastTrade {
  price: string;
  at: number;
}

export interface PriceLoopOptions {
  /** Milliseconds between ticks (1 s). */
  intervalMs?: number;
  /** A source that has not traded for this long is left out of the index; none fresh: no index (5 minutes). */
  staleMs?: number;
  now?: () => number;
  /** Tick on a timer (default); false: the caller calls `tickOnce` (tests). */
  timer?: boolean;
  log?: (message: string) => void;
}

/**
 * The contracts' price loop (decision 046): every second, each contract's index from its spot
 * sources' last trades (equal weights, stale ones left out: a price nobody traded at recently
 * liquidates no one), handed to the core as one `contract.tick`; the core moves the marks,
 * liquidates, deleverages and pays funding in it. The sources are configuration
 * (`contract_symbol.index_sources`), read again every minute.
 */
export class ContractPriceLoop {
  private readonly lastTrades = new Map<string, LastTrade>();
  private sources = new Map<string, string[]>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private sinceReload = 0;
  private readonly intervalMs: number;
  private readonly staleMs: number;
  private readonly now: () => number;

  constructor(
    private readonly durable: DurableCore,
    private readonly contracts: ContractService,
    private readonly options: PriceLoopOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 1_000;
    this.staleMs = options.staleMs ?? 5 * 60_000;
    this.now = options.now ?? Date.now;
    durable.onEvents((applied) => {
      for (const e of applied.events) {
        if (e.type !== "trade") continue;
        const market = durable.core.markets.get(e.symbol);
        if (market) this.lastTrades.set(e.symbol, { price: fromMinor(e.price, market.config.priceScale), at: applied.at });
      }
    });
  }

  /** Reads the sources and each source's last trade (its time from the trades table), then ticks on the timer. */
  async start(): Promise<void> {
    await this.reload(this.durable.db);
    const symbols = [...new Set([...this.sources.values()].flat())];
    if (symbols.length) {
      const rows = await this.durable.db
        .selectFrom("spot_trade")
        .select(["symbol", (eb) => eb.fn.max("id").as("id")])
        .where("symbol", "in", symbols)
        .groupBy("symbol")
        .execute();
      for (const { id } of rows) {
        const last = await this.durable.db.selectFrom("spot_trade").select(["symbol", "price", "created_at"]).where("id", "=", String(id)).executeTakeFirst();
        if (last && !this.lastTrades.has(last.symbol)) this.lastTrades.set(last.symbol, { price: String(last.price), at: new Date(last.created_at).getTime() });
      }
    }
    if (this.options.timer === false) return;
    this.timer = setInterval(() => {
      this.running ??= this.tickOnce()
        .catch((error: unknown) => this.options.log?.(`contract price tick failed: ${(error as Error).message}`))
        .finally(() => {
          this.running = null;
        });
    }, this.intervalMs);
    this.timer.unref();
  }

  private async reload(db: Kysely<Database>): Promise<void> {
    this.sources = new Map((await contractRows(db)).map((r) => [r.symbol, r.index_sources]));
  }

  /** The index of a contract now (decimal at its price scale), or null when no source traded recently. */
  indexOf(symbol: string, now = this.now()): string | null {
    const perpetual = this.contracts.contracts.get(symbol);
    if (!perpetual) return null;
    const scale = perpetual.config.spec.priceScale;
    const sources: IndexSource[] = [];
    for (const source of this.sources.get(symbol) ?? []) {
      const last = this.lastTrades.get(source);
      if (last) sources.push({ price: toMinor(last.price, scale, "down"), at: last.at, weight: 1n });
    }
    const index = indexPrice(sources, now, this.staleMs);
    return index === null ? null : fromMinor(index, scale);
  }

  /** One tick: every contract's index, in one command. */
  async tickOnce(now = this.now()): Promise<void> {
    this.sinceReload += this.intervalMs;
    if (this.sinceReload >= 60_000) {
      this.sinceReload = 0;
      await this.reload(this.durable.db);
    }
    const prices: Array<[string, string | null]> = [];
    for (const symbol of this.contracts.contracts.keys()) prices.push([symbol, this.indexOf(symbol, now)]);
    if (prices.length) await this.contracts.tick(prices, now);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
