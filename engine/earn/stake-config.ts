import type { Kysely, Selectable } from "kysely";
import type { ExchangeCore } from "../core/exchange/exchange-core";
import { STAKE_RATE_SCALE, type StakeProduct } from "../core/earn/staking";
import { minorOf } from "../store/bulk-restore";
import type { Database, StakeProductTable } from "../store/schema";

/** Coins staked on a fresh install: yearly rates by term (flexible, 7, 30, 90 days), the smallest stake, the most per member, the cap. */
const COINS: ReadonlyArray<[asset: string, rates: readonly [string, string, string, string], min: string, perMember: string, cap: string]> = [
  ["USDT", ["0.05", "0.08", "0.12", "0.18"], "10", "200000", "50000000"],
  ["BTC", ["0.01", "0.02", "0.035", "0.05"], "0.0001", "5", "500"],
  ["ETH", ["0.02", "0.035", "0.05", "0.07"], "0.001", "100", "10000"],
  ["SOL", ["0.04", "0.06", "0.08", "0.1"], "0.1", "5000", "500000"],
];
const TERMS = [0, 7, 30, 90] as const;

/**
 * Staking's configuration of a fresh install (issue 32, decision 052): USDT, BTC, ETH and SOL,
 * each flexible or fixed for 7, 30 or 90 days, up to 18 % a year (USDT for 90 days). Seeded while
 * the table is empty; operators keep it afterwards (`stake.product`).
 */
export const SEEDED_STAKE_PRODUCTS: Array<Omit<Selectable<StakeProductTable>, "sort"> & { sort: number }> = COINS.flatMap(
  ([asset, rates, min, perMember, cap], c) =>
    TERMS.map((termDays, t) => ({
      id: `${asset}-${termDays}`,
      asset,
      term_days: termDays,
      yearly_rate: rates[t]!,
      cap,
      min_amount: min,
      max_per_member: perMember,
      enabled: true,
      sort: c * 10 + t,
    })),
);

export async function seedStaking(db: Kysely<Database>): Promise<void> {
  if (!(await db.selectFrom("stake_product").select("id").limit(1).executeTakeFirst()))
    await db.insertInto("stake_product").values(SEEDED_STAKE_PRODUCTS).execute();
}

export async function stakeProductRows(db: Kysely<Database>): Promise<Array<Selectable<StakeProductTable>>> {
  return db.selectFrom("stake_product").selectAll().orderBy("sort").orderBy("id").execute();
}

/** A product row as the core holds it (the rate at STAKE_RATE_SCALE, amounts in the coin's units). */
export function stakeProductOfRow(row: Selectable<StakeProductTable>, scale: number): StakeProduct {
  return {
    id: row.id,
    asset: row.asset,
    termDays: row.term_days,
    yearlyRate: minorOf(String(row.yearly_rate), STAKE_RATE_SCALE),
    cap: minorOf(String(row.cap), scale),
    minAmount: minorOf(String(row.min_amount), scale),
    maxPerMember: minorOf(String(row.max_per_member), scale),
    enabled: row.enabled,
  };
}

/** Configures the products the core does not hold yet whose coin it lists. True: some. */
export function configureStaking(core: ExchangeCore, rows: Array<Selectable<StakeProductTable>>): boolean {
  let configured = false;
  for (const row of rows) {
    const scale = core.assetScales.get(row.asset);
    if (scale === undefined || core.staking.products.has(row.id)) continue;
    core.staking.configureProduct(stakeProductOfRow(row, scale));
    configured = true;
  }
  return configured;
}
