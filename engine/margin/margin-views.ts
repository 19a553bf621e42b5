import type { MarginAccountView } from "../../protocol/endpoints/margin";
import { fromMinor } from "../../protocol/money";
import type { ExchangeCore } from "../core/exchange/exchange-core";
import {
  lendingAccount,
  marginInsuranceAccount,
  CROSS_LEVERAGE,
  LIQUIDATION_LEVEL,
  MARGIN_RATE_SCALE,
  marginKind,
  TRANSFER_OUT_LEVEL,
  WARNING_LEVEL,
  type MarginScope,
} from "../core/margin/margin";

const level = (hundredths: bigint) => fromMinor(hundredths, 2);
const HOURS_PER_DAY = 24n;
const HOURS_PER_YEAR = 24n * 365n;

/** A margin account as the API answers it, from memory: balances, debts, what may be borrowed, the level and its lines. */
export function marginAccountView(core: ExchangeCore, memberId: string, scope: MarginScope): MarginAccountView {
  const { margin, ledger } = core;
  const valuation = core.scaleOf(margin.valuationAsset);
  const { assets, debts, level: now } = margin.levelOf(memberId, scope);
  const coins = [...(margin.assetsOf(scope) ?? [])].map((coin) => {
    const scale = core.scaleOf(coin);
    const ref = { owner: memberId, kind: marginKind(scope), asset: coin };
    const loan = margin.loan(memberId, scope, coin);
    const principal = loan?.principal ?? 0n;
    const interest = loan?.interest ?? 0n;
    const can = margin.pools.has(coin) ? margin.canBorrow(memberId, scope, coin) : null;
    return {
      coin,
      balance: fromMinor(ledger.posted(ref), scale),
      available: fromMinor(ledger.available(ref), scale),
      borrowed: fromMinor(principal, scale),
      interest: fromMinor(interest, scale),
      owed: fromMinor(principal + interest, scale),
      canBorrow: typeof can === "bigint" ? fromMinor(can, scale) : null,
    };
  });
  const pair = scope === "all" ? undefined : margin.pairs.get(scope);
  return {
    mode: scope === "all" ? "all" : "fixed",
    symbolName: scope === "all" ? null : scope,
    leverage: margin.leverageOf(memberId, scope),
    maxLeverage: pair?.maxLeverage ?? CROSS_LEVERAGE,
    assetsValue: fromMinor(assets, valuation),
    debtsValue: fromMinor(debts, valuation),
    marginLevel: now === null ? null : level(now),
    warned: margin.isWarned(memberId, scope),
    warningLevel: level(WARNING_LEVEL),
    liquidationLevel: level(LIQUIDATION_LEVEL),
    transferOutLevel: level(TRANSFER_OUT_LEVEL),
    coins,
  };
}

/** A pool's rates (simple interest: a day is 24 hours, a year 365 days), its smallest borrow and what it can still lend. */
export function marginRateView(core: ExchangeCore, coin: string) {
  const pool = core.margin.pools.get(coin)!;
  const scale = core.scaleOf(coin);
  const left = pool.limit - core.margin.lentOf(coin);
  return {
    coin,
    hourlyRate: fromMinor(pool.hourlyRate, MARGIN_RATE_SCALE),
    dailyRate: fromMinor(pool.hourlyRate * HOURS_PER_DAY, MARGIN_RATE_SCALE),
    yearlyRate: fromMinor(pool.hourlyRate * HOURS_PER_YEAR, MARGIN_RATE_SCALE),
    minBorrow: fromMinor(pool.minBorrow, scale),
    available: fromMinor(left > 0n ? left : 0n, scale),
  };
}

/** A pool as operators see it: its rates, limit, principal lent and the interest it has earned (less shortfalls). */
export function marginPoolView(core: ExchangeCore, coin: string) {
  const pool = core.margin.pools.get(coin)!;
  const scale = core.scaleOf(coin);
  return {
    ...marginRateView(core, coin),
    limit: fromMinor(pool.limit, scale),
    lent: fromMinor(core.margin.lentOf(coin), scale),
    earned: fromMinor(core.ledger.posted(lendingAccount(coin)), scale),
    insurance: fromMinor(core.ledger.posted(marginInsuranceAccount(coin)), scale),
  };
}
