import type { ExchangeCore } from "../exchange/exchange-core";
import type { AccountKind } from "../ledger/ledger";
import { unrealisedPnl } from "../contracts/contract-math";

/** The coin balances are valued in (spec §3 "Wallet account": usdt). */
export const VALUATION_COIN = "USDT";

/**
 * What `amount` of `asset` (minor units at its scale) is worth in `quote` (minor units at the
 * quote's scale), at the last trade price of `asset/quote`; truncated toward zero (a valuation
 * never shows more than the balance would fetch). Null when that market has no price yet. The
 * quote itself is worth its amount.
 */
export function valueIn(core: ExchangeCore, asset: string, amount: bigint, quote = VALUATION_COIN): bigint | null {
  if (asset === quote) return amount;
  const market = core.markets.get(`${asset}/${quote}`);
  const price = market?.lastPrice;
  if (!market || price === undefined) return null;
  // amount [asset scale] × price [price scale] → quote scale.
  const shift = core.scaleOf(asset) + market.config.priceScale - core.scaleOf(quote);
  const product = amount * price;
  return shift >= 0 ? product / 10n ** BigInt(shift) : product * 10n ** BigInt(-shift);
}

/**
 * A member's account, valued: the sum of its coins' posted balances (available + frozen) that have
 * a price. The contract account counts the margin its positions hold too (it moved there from it).
 */
export function accountValue(core: ExchangeCore, memberId: string, kind: AccountKind, quote = VALUATION_COIN): bigint {
  let total = 0n;
  for (const asset of core.assetScales.keys()) {
    let posted = core.ledger.posted({ owner: memberId, kind, asset });
    if (kind === "contract") posted += core.ledger.posted({ owner: memberId, kind: "position", asset });
    if (posted === 0n) continue;
    total += valueIn(core, asset, posted, quote) ?? 0n;
  }
  return total;
}

/**
 * What a member's contract account holds in a settlement coin beyond its own balance (issue 30):
 * the margin their positions settling in it hold (the position account), and those positions'
 * unrealised profit or loss at each contract's mark (none before a contract's first mark).
 */
export function contractHoldings(core: ExchangeCore, memberId: string, asset: string): { margin: bigint; unrealised: bigint } {
  const margin = core.ledger.posted({ owner: memberId, kind: "position", asset });
  let unrealised = 0n;
  for (const perpetual of core.contracts.values()) {
    if (perpetual.config.settleAsset !== asset || perpetual.mark === null) continue;
    const position = perpetual.market.position(memberId);
    if (position) unrealised += unrealisedPnl(perpetual.config.spec, position, perpetual.mark);
  }
  return { margin, unrealised };
}
