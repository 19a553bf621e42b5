import { createHash } from "node:crypto";
import type { Ledger } from "../ledger/ledger";
import { ContractMarket, type ContractEvent, type ContractMarketConfig, type ContractMarketState } from "./contract-market";
import { DEFAULT_MARK_RULES, MarkTracker, type MarkRules, type MarkState } from "./contract-prices";

/**
 * One perpetual contract as the exchange core runs it (issue 30, decision 046): its market
 * (orders, positions, margins, liquidation; contract-market.ts) and its reference prices (the
 * index the price loop reads from the spot books and hands in with each tick, the mark the
 * tracker smooths from it, the funding paid at each funding time). Everything that moves with
 * time moves in `tick`, a command of its own, so a replay of the journal reaches the same marks,
 * liquidations and funding.
 */
export interface PerpetualConfig extends ContractMarketConfig {
  /** The coin it is on (BTC) and what its prices are quoted in (USDT for linear, USD for inverse). */
  base: string;
  quote: string;
  /** Contracts whose fill decides the impact prices (the premium and the basis sample them). */
  impactQty: bigint;
  markRules?: MarkRules;
}

export interface PerpetualState {
  symbol: string;
  market: ContractMarketState;
  /** Absent until the first tick (the tracker starts at it). */
  tracker: MarkState | null;
  mark: string | null;
  index: string | null;
  halted: boolean;
}

/** What a tick did to the contract's prices: the market data and the page's funding line read it. */
export interface MarkEvent {
  type: "contract.mark";
  symbol: string;
  /** null: no source traded recently (the mark stays where it was; nothing is liquidated on it). */
  index: bigint | null;
  mark: bigint | null;
  /** The rate the interval's premium gives so far (RATE units), and when it is paid. */
  predictedRate: bigint;
  nextFundingAt: number;
  /** A funding time passed in this tick and was paid: its rate. */
  funded?: { rate: bigint; at: number };
}

export type PerpetualEvent = ContractEvent | MarkEvent;

interface PerpetualSink {
  push(...events: PerpetualEvent[]): unknown;
}

export class Perpetual {
  readonly market: ContractMarket;
  private tracker: MarkTracker | null = null;
  private markPrice: bigint | null = null;
  private indexPrice: bigint | null = null;
  halted = false;

  constructor(
    readonly config: PerpetualConfig,
    ledger: Ledger,
    nextId: () => string,
  ) {
    this.market = new ContractMarket(config, ledger, nextId);
  }

  get symbol(): string {
    return this.config.symbol;
  }

  /** The price margins are checked and liquidations run at; null before the first fresh index. */
  get mark(): bigint | null {
    return this.markPrice;
  }

  get index(): bigint | null {
    return this.indexPrice;
  }

  /** The predicted rate and the next funding time (null before the first tick). */
  funding(): { predictedRate: bigint; nextFundingAt: number } | null {
    return this.tracker ? { predictedRate: this.tracker.predictedRate(), nextFundingAt: this.tracker.fundingAt } : null;
  }

  /**
   * A second of the price loop: the index (null when stale) sampled with the book's impact prices
   * into the mark; positions the mark reached liquidated, the insurance fund's taken-over position
   * deleveraged (not while the contract is halted), and funding paid when its time has come (at
   * the mark as it stands).
   */
  tick(index: bigint | null, at: number, out: PerpetualSink): void {
    this.tracker ??= new MarkTracker(at, this.config.markRules ?? DEFAULT_MARK_RULES);
    this.indexPrice = index;
    if (index !== null) {
      const { bid, ask } = this.impactPrices();
      this.markPrice = this.tracker.sample(index, bid, ask);
      // A halted contract liquidates nobody: its members cannot trade, close or add margin meanwhile.
      if (!this.halted) {
        this.market.markTick(this.markPrice, out);
        this.market.deleverageFund(this.markPrice, out);
        this.market.coverDeficit(out);
      }
    }
    // A funding time before the first mark passes unpaid (no price to value positions at; there are none yet).
    const due = this.tracker.fundingDue(at);
    const paid = due !== null && this.markPrice !== null;
    if (paid) this.market.settleFunding(this.markPrice!, due.rate, out);
    out.push({
      type: "contract.mark",
      symbol: this.symbol,
      index,
      mark: this.markPrice,
      predictedRate: this.tracker.predictedRate(),
      nextFundingAt: this.tracker.fundingAt,
      ...(paid ? { funded: due } : {}),
    });
  }

  /** The worst price `impactQty` contracts would fill at on each side; null where the book is thinner. */
  private impactPrices(): { bid: bigint | null; ask: bigint | null } {
    const depth = this.market.depth(50);
    const reach = (levels: Array<[bigint, bigint]>) => {
      let left = this.config.impactQty;
      for (const [price, qty] of levels) {
        left -= qty;
        if (left <= 0n) return price;
      }
      return null;
    };
    return { bid: reach(depth.bids), ask: reach(depth.asks) };
  }

  snapshot(): PerpetualState {
    return {
      symbol: this.symbol,
      market: this.market.snapshot(),
      tracker: this.tracker?.snapshot() ?? null,
      mark: this.markPrice?.toString() ?? null,
      index: this.indexPrice?.toString() ?? null,
      halted: this.halted,
    };
  }

  /** Takes a snapshot (or the tables' equivalent) back, after the ledger's balances and holds. */
  restore(state: PerpetualState): void {
    this.market.restore(state.market);
    if (state.tracker) {
      this.tracker = new MarkTracker(0, this.config.markRules ?? DEFAULT_MARK_RULES);
      this.tracker.restore(state.tracker);
    }
    this.markPrice = state.mark === null ? null : BigInt(state.mark);
    this.indexPrice = state.index === null ? null : BigInt(state.index);
    this.halted = state.halted;
  }

  stateHash(): string {
    const t = this.tracker?.snapshot();
    return createHash("sha256")
      .update(this.market.stateHash())
      .update(`mark ${this.markPrice} index ${this.indexPrice} halted ${this.halted};`)
      .update(t ? `tracker ${t.basis}/${t.premiumSum}/${t.premiumCount}/${t.nextFundingAt}` : "tracker -")
      .digest("hex");
  }
}

/** A contract's configuration as plain data (snapshots and the journal carry no bigint). */
export interface PerpetualConfigPlain {
  symbol: string;
  base: string;
  quote: string;
  settleAsset: string;
  kind: "linear" | "inverse";
  priceScale: number;
  settleScale: number;
  multiplier: string;
  multiplierScale: number;
  tickSize: string;
  minQty: string;
  maxQty: string;
  makerFeeBps: number;
  takerFeeBps: number;
  /** Bands: maximum value (settlement units), maximum leverage, maintenance rate (RATE units). */
  tiers: Array<[maxValue: string, maxLeverage: number, mmr: string]>;
  priceBand: string;
  defaultLeverage: number;
  impactQty: string;
  /** The mark's smoothing and cap and funding's interval and rules, when not the defaults. */
  markRules?: { smoothing: number; basisCap: string; fundingIntervalMs: number; interest: string; dampener: string; cap: string };
}

export function plainConfig(c: PerpetualConfig): PerpetualConfigPlain {
  return {
    symbol: c.symbol,
    base: c.base,
    quote: c.quote,
    settleAsset: c.settleAsset,
    kind: c.spec.kind,
    priceScale: c.spec.priceScale,
    settleScale: c.spec.settleScale,
    multiplier: c.spec.multiplier.toString(),
    multiplierScale: c.spec.multiplierScale,
    tickSize: c.tickSize.toString(),
    minQty: c.minQty.toString(),
    maxQty: c.maxQty.toString(),
    makerFeeBps: c.makerFeeBps,
    takerFeeBps: c.takerFeeBps,
    tiers: c.tiers.map((t) => [t.maxValue.toString(), t.maxLeverage, t.mmr.toString()]),
    priceBand: c.priceBand.toString(),
    defaultLeverage: c.defaultLeverage,
    impactQty: c.impactQty.toString(),
    ...(c.markRules && {
      markRules: {
        smoothing: c.markRules.smoothing,
        basisCap: c.markRules.basisCap.toString(),
        fundingIntervalMs: c.markRules.fundingIntervalMs,
        interest: c.markRules.funding.interest.toString(),
        dampener: c.markRules.funding.dampener.toString(),
        cap: c.markRules.funding.cap.toString(),
      },
    }),
  };
}

export function configOfPlain(p: PerpetualConfigPlain): PerpetualConfig {
  return {
    symbol: p.symbol,
    base: p.base,
    quote: p.quote,
    settleAsset: p.settleAsset,
    spec: { kind: p.kind, priceScale: p.priceScale, settleScale: p.settleScale, multiplier: BigInt(p.multiplier), multiplierScale: p.multiplierScale },
    tickSize: BigInt(p.tickSize),
    minQty: BigInt(p.minQty),
    maxQty: BigInt(p.maxQty),
    makerFeeBps: p.makerFeeBps,
    takerFeeBps: p.takerFeeBps,
    tiers: p.tiers.map(([maxValue, maxLeverage, mmr]) => ({ maxValue: BigInt(maxValue), maxLeverage, mmr: BigInt(mmr) })),
    priceBand: BigInt(p.priceBand),
    defaultLeverage: p.defaultLeverage,
    impactQty: BigInt(p.impactQty),
    ...(p.markRules && {
      markRules: {
        smoothing: p.markRules.smoothing,
        basisCap: BigInt(p.markRules.basisCap),
        fundingIntervalMs: p.markRules.fundingIntervalMs,
        funding: { interest: BigInt(p.markRules.interest), dampener: BigInt(p.markRules.dampener), cap: BigInt(p.markRules.cap) },
      },
    }),
  };
}

/** Why a contract cannot run with this configuration (null: it can). */
export function perpetualConfigProblem(c: PerpetualConfig): string | null {
  if (c.tickSize <= 0n) return "the tick size must be above zero";
  if (c.minQty < 1n || c.maxQty < c.minQty) return "order limits must be at least one contract, the maximum not below the minimum";
  if (![c.makerFeeBps, c.takerFeeBps].every((f) => Number.isInteger(f) && f >= 0 && f <= 1000)) return "fees are whole basis points from 0 to 1000";
  if (c.priceBand <= 0n || c.priceBand > 50_000_000n) return "the price band is above 0 and at most 50 %";
  if (c.tiers.length === 0) return "the risk-limit table needs a band";
  let previous = 0n;
  for (const t of c.tiers) {
    if (t.maxValue <= previous) return "risk bands rise in value";
    if (!Number.isInteger(t.maxLeverage) || t.maxLeverage < 1 || t.maxLeverage > 100) return "a band's leverage is a whole number from 1 to 100";
    if (t.mmr <= 0n || t.mmr * BigInt(t.maxLeverage) >= 100_000_000n) return "a band's maintenance rate is above 0 and below its initial margin";
    previous = t.maxValue;
  }
  if (!Number.isInteger(c.defaultLeverage) || c.defaultLeverage < 1 || c.defaultLeverage > c.tiers[0]!.maxLeverage)
    return "the default leverage is within the first band";
  if (c.impactQty < 1n) return "the impact quantity is at least one contract";
  return null;
}
