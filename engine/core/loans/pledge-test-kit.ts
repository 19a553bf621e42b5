import type { PledgeProductRules } from "../exchange/commands";
import type { ExchangeCore } from "../exchange/exchange-core";
import { marginCore } from "../margin/margin-test-kit";

/** A product of USDT against BTC for a term (the tests' and the bench's): 0.001 % an hour, 0.003 % overdue, LTVs 65/80/90 %, 100 to 1,000,000 USDT. */
export function btcLoanProduct(termDays = 7, id = `USDT-BTC-${termDays}`): PledgeProductRules {
  return {
    type: "pledge.product",
    id,
    loanAsset: "USDT",
    collateralAsset: "BTC",
    termDays,
    hourlyRate: "0.00001",
    overdueRate: "0.00003",
    initialLtv: "0.65",
    callLtv: "0.8",
    liquidationLtv: "0.9",
    minAmount: "100",
    maxAmount: "1000000",
    enabled: true,
  };
}

/** The margin tests' core (BTC/USDT and ETH/USDT, 8-decimal coins) with loan products of USDT against BTC (flexible and 7 days) and ETH (30 days). */
export function pledgeCore(prefix = "p"): ExchangeCore {
  const core = marginCore(prefix);
  for (const product of [btcLoanProduct(0), btcLoanProduct(7), { ...btcLoanProduct(30, "USDT-ETH-30"), collateralAsset: "ETH" }]) {
    const outcome = core.apply(product);
    if (outcome.code !== "OK") throw new Error(`product ${product.id} refused: ${outcome.code}`);
  }
  return core;
}
