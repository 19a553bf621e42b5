import type { Kysely, Selectable } from "kysely";
import type { ExchangeCore } from "../core/exchange/exchange-core";
import { LTV_SCALE, PledgeLoans, type PledgeProduct } from "../core/loans/pledge-loans";
import { MARGIN_RATE_SCALE } from "../core/margin/margin";
import { minorOf } from "../store/bulk-restore";
import type { Database, PledgeProductTable } from "../store/schema";

/** Hourly rates by term (a year's simple interest: flexible 10 %, 7 days 8.3 %, 30 days 7.4 %, 90 days 7 %, 180 days 6.6 %); overdue: three times. */
const RATES: ReadonlyArray<[termDays: number, hourly: string, overdue: string]> = [
  [0, "0.0000114", "0.0000342"],
  [7, "0.0000095", "0.0000285"],
  [30, "0.0000085", "0.0000255"],
  [90, "0.000008", "0.000024"],
  [180, "0.0000075", "0.0000225"],
];

/** USDT against the three largest coins: LTVs (initial, margin call, liquidation) and the largest loan. */
const COLLATERAL: ReadonlyArray<[asset: string, initial: string, call: string, liquidation: string, max: string]> = [
  ["BTC", "0.65", "0.8", "0.9", "500000"],
  ["ETH", "0.65", "0.8", "0.9", "300000"],
  ["SOL", "0.5", "0.7", "0.83", "100000"],
];

/**
 * Crypto loans' configuration of a fresh install (issue 31, decision 051): USDT lent against BTC,
 * ETH and SOL, each flexible or for 7, 30, 90 or 180 days, from 100 USDT. Seeded while the table is
 * empty; operators keep it afterwards (`pledge.product`).
 */
export const SEEDED_PRODUCTS: Array<Omit<Selectable<PledgeProductTable>, "sort"> & { sort: number }> = COLLATERAL.flatMap(
  ([collateral, initial, call, liquidation, max], c) =>
    RATES.map(([termDays, hourly, overdue], t) => ({
      id: `USDT-${collateral}-${termDays}`,
      loan_asset: "USDT",
      collateral_asset: collateral,
      term_days: termDays,
      hourly_rate: hourly,
      overdue_rate: overdue,
      initial_ltv: initial,
      call_ltv: call,
      liquidation_ltv: liquidation,
      min_amount: "100",
      max_amount: max,
      enabled: true,
      sort: c * 10 + t,
    })),
);

export async function seedPledge(db: Kysely<Database>): Promise<void> {
  if (!(await db.selectFrom("pledge_product").select("id").limit(1).executeTakeFirst()))
    await db.insertInto("pledge_product").values(SEEDED_PRODUCTS).execute();
}

export async function pledgeProductRows(db: Kysely<Database>): Promise<Array<Selectable<PledgeProductTable>>> {
  return db.selectFrom("pledge_product").selectAll().orderBy("sort").orderBy("id").execute();
}

/** A product row as the core holds it (rates at MARGIN_RATE_SCALE, LTVs at LTV_SCALE, amounts in the loan coin's units). */
export function productOfRow(row: Selectable<PledgeProductTable>, loanScale: number): PledgeProduct {
  return {
    id: row.id,
    loanAsset: row.loan_asset,
    collateralAsset: row.collateral_asset,
    termDays: row.term_days,
    hourlyRate: minorOf(String(row.hourly_rate), MARGIN_RATE_SCALE),
    overdueRate: minorOf(String(row.overdue_rate), MARGIN_RATE_SCALE),
    initialLtv: minorOf(String(row.initial_ltv), LTV_SCALE),
    callLtv: minorOf(String(row.call_ltv), LTV_SCALE),
    liquidationLtv: minorOf(String(row.liquidation_ltv), LTV_SCALE),
    minAmount: minorOf(String(row.min_amount), loanScale),
    maxAmount: minorOf(String(row.max_amount), loanScale),
    enabled: row.enabled,
  };
}

/** Configures the products the core does not hold yet whose coins and market it lists. True: some. */
export function configurePledge(core: ExchangeCore, rows: Array<Selectable<PledgeProductTable>>): boolean {
  let configured = false;
  for (const row of rows) {
    const scale = core.assetScales.get(row.loan_asset);
    if (scale === undefined || !core.assetScales.has(row.collateral_asset) || core.pledges.products.has(row.id)) continue;
    if (!core.markets.has(PledgeLoans.marketOf({ collateralAsset: row.collateral_asset, loanAsset: row.loan_asset }))) continue;
    core.pledges.configureProduct(productOfRow(row, scale));
    configured = true;
  }
  return configured;
}
