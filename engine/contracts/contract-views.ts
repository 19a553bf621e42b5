import type { ContractInfo, ContractPosition, ContractState } from "../../protocol/endpoints/contracts";
import { fromMinor } from "../../protocol/money";
import { averageEntry, contractValue, maintenanceMargin, RATE_SCALE, unrealisedPnl } from "../core/contracts/contract-math";
import type { Position } from "../core/contracts/contract-market";
import type { Perpetual } from "../core/contracts/perpetual";
import { contractSize } from "./contract-config";

/** How contracts read over the API (decision 046): decimals at the contract's scales, rates as fractions. */

export const contractTypeOf = (p: Perpetual): 1 | 2 => (p.config.spec.kind === "linear" ? 1 : 2);

const rate = (units: bigint) => fromMinor(units, RATE_SCALE);
const bps = (value: number) => fromMinor(BigInt(value), 4);

export function contractInfo(p: Perpetual): ContractInfo {
  const c = p.config;
  const size = contractSize(c);
  return {
    symbolName: c.symbol,
    contract_type: contractTypeOf(p),
    base: c.base,
    quote: c.quote,
    settleCoin: c.settleAsset,
    contractSize: size.amount,
    contractUnit: size.unit,
    tickSize: fromMinor(c.tickSize, c.spec.priceScale),
    priceScale: c.spec.priceScale,
    settleScale: c.spec.settleScale,
    minQty: c.minQty.toString(),
    maxQty: c.maxQty.toString(),
    maxLeverage: Math.max(...c.tiers.map((t) => t.maxLeverage)),
    makerFeeRate: bps(c.makerFeeBps),
    takerFeeRate: bps(c.takerFeeBps),
    priceBand: rate(c.priceBand),
    halted: p.halted,
    tiers: tiersOf(p),
  };
}

export function tiersOf(p: Perpetual) {
  return p.config.tiers.map((t) => ({ maxValue: fromMinor(t.maxValue, p.config.spec.settleScale), maxLeverage: t.maxLeverage, maintenanceRate: rate(t.mmr) }));
}

export function contractState(p: Perpetual, lastPrice: bigint | undefined): ContractState {
  const scale = p.config.spec.priceScale;
  const price = (v: bigint | null | undefined) => (v === null || v === undefined ? null : fromMinor(v, scale));
  const funding = p.funding();
  const { bids, asks } = p.market.depth(1);
  const intervalMs = p.config.markRules?.fundingIntervalMs ?? 8 * 3_600_000;
  return {
    symbolName: p.symbol,
    contract_type: contractTypeOf(p),
    markPrice: price(p.mark),
    indexPrice: price(p.index),
    lastPrice: price(lastPrice),
    fundingRate: rate(funding?.predictedRate ?? 0n),
    nextFundingTime: funding?.nextFundingAt ?? null,
    fundingIntervalHours: Math.round(intervalMs / 3_600_000),
    openInterest: p.market.openInterest.toString(),
    bestBid: price(bids[0]?.[0]),
    bestAsk: price(asks[0]?.[0]),
  };
}

export function positionView(p: Perpetual, position: Position): ContractPosition {
  const { spec, tiers, settleAsset } = p.config;
  const money = (v: bigint) => fromMinor(v, spec.settleScale);
  const price = (v: bigint) => fromMinor(v, spec.priceScale);
  const mark = p.mark;
  const value = mark === null ? null : contractValue(spec, position.qty, mark);
  const pnl = mark === null ? null : unrealisedPnl(spec, position, mark);
  const roe = pnl === null || position.margin === 0n ? null : fromMinor((pnl * 10_000n) / position.margin, 2);
  return {
    symbolName: p.symbol,
    contract_type: contractTypeOf(p),
    settleCoin: settleAsset,
    side: position.side,
    qty: position.qty.toString(),
    entryPrice: price(averageEntry(spec, position)),
    markPrice: mark === null ? null : price(mark),
    liquidationPrice: position.liquidation === null ? null : price(position.liquidation),
    leverage: position.leverage,
    value: value === null ? null : money(value),
    margin: money(position.margin),
    maintenanceMargin: value === null ? null : money(maintenanceMargin(tiers, value)),
    unrealisedPnl: pnl === null ? null : money(pnl),
    roe,
    tpsl: tpslOf(p, position.memberId),
    marginMode: p.market.marginModeOf(position.memberId),
  };
}

/** A member's take profit and stop loss on their position in `p`, if set. */
function tpslOf(p: Perpetual, memberId: string): ContractPosition["tpsl"] {
  const stop = p.market.positionStopsOf(memberId);
  if (!stop) return null;
  const price = (v: bigint | null) => (v === null ? null : fromMinor(v, p.config.spec.priceScale));
  return { stopId: stop.id, triggerBy: stop.triggerBy, takeProfit: price(stop.profitPrice), stopLoss: price(stop.lossPrice) };
}
