import { fromMinor } from "../../protocol/money";
import { applyTrade, emptySeries, PERIODS, type Candle, type CandleTrade, type Period } from "../core/market/candles";
import type { ProjectionRows, RowsKind } from "../journal/command-batch";
import { json } from "../journal/sql-script";
import type { CandleScales } from "./stored-candles";

/** One series' candles touched in the batch, per period (folded like market data's, `applyTrade`). */
interface MarketCandles {
  /** The columns that name the series in its table (a spot symbol; a contract and its price). */
  keys: Record<string, string>;
  scales: CandleScales;
  series: Record<Period, Candle[]>;
}

/** A k-line table: its name and the columns that, with the period and the open time, key a candle. */
export interface KlineTable {
  name: "spot_kline" | "contract_kline";
  keys: readonly string[];
}

export const SPOT_KLINE: KlineTable = { name: "spot_kline", keys: ["symbol"] };
/** A contract's candles of its last trade price and of its mark price (`source` last or mark; issue 30). */
export const CONTRACT_KLINE: KlineTable = { name: "contract_kline", keys: ["symbol", "source"] };

/**
 * The k-line rows of one batch, a projection of its trade events (decision 017, step 6): each
 * trade folds into its candle of every period, and the batch writes one row per touched candle
 * that merges into the stored one: the first open stays, high and low widen, close is the
 * latest, volume and turnover add up. The projector writes each batch exactly once (with its
 * cursor), so the merge counts every trade once, also when a start replays the journal the
 * tables had not caught up with after a crash.
 */
export class CandleRows implements ProjectionRows {
  private readonly markets = new Map<string, MarketCandles>();

  constructor(private readonly table: KlineTable = SPOT_KLINE) {}

  /** A spot trade (price, quantity and quote value in minor units at `scales`, time in ms). */
  addTrade(symbol: string, trade: CandleTrade, scales: CandleScales): void {
    this.add({ symbol }, trade, scales);
  }

  /** A trade, or a price sample (quantity and value 0), into the series its key columns name. */
  add(keys: Record<string, string>, trade: CandleTrade, scales: CandleScales): void {
    const id = this.table.keys.map((k) => keys[k]).join("|");
    let market = this.markets.get(id);
    if (!market) {
      market = { keys, scales, series: emptySeries() };
      this.markets.set(id, market);
    }
    for (const period of PERIODS) applyTrade(market.series[period], period, trade);
  }

  /**
   * A later batch's candles (copied): one with the same open time folds into this batch's (its high and
   * low widen, its close, volume and turnover come after), others join in time order — the same
   * stored candles as its row merged after this batch's (the `on conflict` below).
   */
  absorb(later: CandleRows): void {
    for (const [id, theirs] of later.markets) {
      let mine = this.markets.get(id);
      if (!mine) {
        mine = { keys: theirs.keys, scales: theirs.scales, series: emptySeries() };
        this.markets.set(id, mine);
      }
      for (const period of PERIODS) {
        const series = mine.series[period];
        for (const c of theirs.series[period]) {
          const same = series.find((s) => s.time === c.time);
          if (!same) {
            const at = series.findIndex((s) => s.time > c.time);
            series.splice(at < 0 ? series.length : at, 0, { ...c }); // a copy: a later batch's may fold into it
            continue;
          }
          if (c.high > same.high) same.high = c.high;
          if (c.low < same.low) same.low = c.low;
          same.close = c.close;
          same.volume += c.volume;
          same.turnover += c.turnover;
        }
      }
    }
  }

  statements(): string[] {
    const rows: Array<Record<string, string>> = [];
    for (const { keys, scales, series } of this.markets.values()) {
      const price = (v: bigint) => fromMinor(v, scales.priceScale);
      for (const period of PERIODS) {
        for (const c of series[period]) {
          rows.push({
            ...keys,
            period,
            open_time: String(c.time),
            open: price(c.open),
            high: price(c.high),
            low: price(c.low),
            close: price(c.close),
            volume: fromMinor(c.volume, scales.amountScale),
            turnover: fromMinor(c.turnover, scales.quoteScale),
          });
        }
      }
    }
    if (!rows.length) return [];
    const { name, keys } = this.table;
    const columns = [...keys, "period", "open_time", "open", "high", "low", "close", "volume", "turnover"].join(", ");
    return [
      `insert into ${name} as k (${columns})
        select ${columns} from json_populate_recordset(null::${name}, ${json(rows)})
        on conflict (${keys.join(", ")}, period, open_time) do update set high = greatest(k.high, excluded.high), low = least(k.low, excluded.low),
          close = excluded.close, volume = k.volume + excluded.volume, turnover = k.turnover + excluded.turnover`,
    ];
  }
}

/** After spot's rows, before the ledger's. */
export const CANDLE_ROWS: RowsKind<CandleRows> = { name: "candles", order: 20, create: () => new CandleRows(SPOT_KLINE) };
/** After the contracts' rows. */
export const CONTRACT_CANDLE_ROWS: RowsKind<CandleRows> = { name: "contract candles", order: 45, create: () => new CandleRows(CONTRACT_KLINE) };
