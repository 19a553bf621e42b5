import type { StakeProductRules } from "../exchange/commands";
import { ExchangeCore } from "../exchange/exchange-core";

/** A staking product of a coin (the tests' and the bench's): 10 % a year, 10 to 100,000 per member, a cap of 10,000,000. */
export function stakeProduct(asset: string, termDays: number, id = `${asset}-${termDays}`, yearlyRate = "0.1"): StakeProductRules {
  return { type: "stake.product", id, asset, termDays, yearlyRate, cap: "10000000", minAmount: "10", maxPerMember: "100000", enabled: true };
}

/** A core with USDT (8 decimals) and ETH (8 decimals) and staking products: USDT flexible, 7 and 30 days; ETH 90 days. */
export function stakingCore(prefix = "s"): ExchangeCore {
  const core = new ExchangeCore(prefix);
  core.listAsset("USDT", 8);
  core.listAsset("ETH", 8);
  for (const product of [
    stakeProduct("USDT", 0),
    stakeProduct("USDT", 7),
    stakeProduct("USDT", 30, "USDT-30", "0.18"),
    stakeProduct("ETH", 90, "ETH-90", "0.05"),
  ]) {
    const outcome = core.apply(product);
    if (outcome.code !== "OK") throw new Error(`product ${product.id} refused: ${outcome.code}`);
  }
  return core;
}
