import { sql, type Kysely } from "kysely";
import { fromMinor } from "../../protocol/money";
import type { Perpetual } from "../core/contracts/perpetual";
import type { Database } from "../store/schema";

/**
 * Demo history of the contracts (simulated liquidity only): on the first start, each contract
 * with neither candles nor trades gets the k-lines of the spot market its index follows (drawn by
 * `backfillKlines`), as its last-price and its mark-price history, so the contract page draws a
 * chart in every period at once and the live candles continue it without a cliff (the simulated
 * contract trades and the mark start at that index). Prices are rounded to the contract's tick
 * scale; the volume is the same trading in contracts: the base amount ÷ the contract size (linear),
 * or the dollar turnover ÷ the face value (inverse). The mark's history has no volume.
 */
export async function backfillContractKlines(db: Kysely<Database>, contracts: ReadonlyMap<string, Perpetual>): Promise<string[]> {
  const filled: string[] = [];
  const sources = new Map((await db.selectFrom("contract_symbol").select(["symbol", "index_sources"]).execute()).map((r) => [r.symbol, r.index_sources]));
  for (const [symbol, perpetual] of contracts) {
    const spotSymbol = sources.get(symbol)?.[0];
    if (!spotSymbol) continue;
    const hasCandles = await db.selectFrom("contract_kline").select("symbol").where("symbol", "=", symbol).limit(1).executeTakeFirst();
    const hasTrades = await db.selectFrom("contract_trade").select("id").where("symbol", "=", symbol).limit(1).executeTakeFirst();
    if (hasCandles || hasTrades) continue;
    const { spec } = perpetual.config;
    const size = fromMinor(spec.multiplier, spec.multiplierScale, { trim: true });
    const volume = spec.kind === "linear" ? sql`floor(volume / ${size}::numeric)` : sql`floor(turnover / ${size}::numeric)`;
    const turnover = spec.kind === "linear" ? sql`turnover` : sql`volume`;
    const price = (column: string) => sql`round(${sql.ref(column)}, ${spec.priceScale})`;
    // One statement per price: the spot history as it stands, in the database (tens of thousands of rows).
    let inserted = 0n;
    for (const source of ["last", "mark"] as const) {
      const result = await sql`
        insert into contract_kline (symbol, source, period, open_time, open, high, low, close, volume, turnover)
        select ${symbol}, ${source}, period, open_time, ${price("open")}, ${price("high")}, ${price("low")}, ${price("close")},
               ${source === "last" ? volume : sql`0`}, ${source === "last" ? turnover : sql`0`}
        from spot_kline where symbol = ${spotSymbol}
      `.execute(db);
      inserted += result.numAffectedRows ?? 0n;
    }
    // An index with no history yet leaves the contract to the next start.
    if (inserted > 0n) filled.push(symbol);
  }
  return filled;
}
