import { DEFAULT_FUNDING, fundingRate, markPrice, RATE_ONE, type FundingRules } from "./contract-math";

/**
 * A perpetual's reference prices (issue 30, decision 045): the index from the spot markets, the
 * mark (index + a smoothed, capped basis) that margins and liquidations use, and the premium that
 * funding is paid on every interval. Pure: samples and times in, prices and rates out.
 */

/** One spot market's last trade, as the index reads it (at the contract's price scale). */
export interface IndexSource {
  price: bigint;
  /** When it traded (ms). */
  at: number;
  /** Its weight (a volume, or 1 each). */
  weight: bigint;
}

/**
 * The index: the weighted mean of the sources that traded within `staleMs`, rounded to the
 * nearest unit; null when none did (a stale index stops the mark: no liquidation runs on a price
 * nobody traded at).
 */
export function indexPrice(sources: readonly IndexSource[], now: number, staleMs: number): bigint | null {
  let sum = 0n;
  let weights = 0n;
  for (const source of sources) {
    if (now - source.at > staleMs || source.weight <= 0n || source.price <= 0n) continue;
    sum += source.price * source.weight;
    weights += source.weight;
  }
  if (weights === 0n) return null;
  return (sum + weights / 2n) / weights;
}

export interface MarkRules {
  /** Samples the basis is smoothed over (an exponential mean of about this many). */
  smoothing: number;
  /** The basis's limit either way, of the index (RATE units). */
  basisCap: bigint;
  /** How often funding is paid (ms): 8 hours. */
  fundingIntervalMs: number;
  funding: FundingRules;
}

export const DEFAULT_MARK_RULES: MarkRules = { smoothing: 30, basisCap: 500_000n, fundingIntervalMs: 8 * 3_600_000, funding: DEFAULT_FUNDING };

/** What the tracker keeps between samples (the snapshot's part). */
export interface MarkState {
  basis: string;
  premiumSum: string;
  premiumCount: number;
  nextFundingAt: number;
}

/** The funding time after `now`: the next multiple of the interval since the epoch (00:00, 08:00, 16:00 UTC for 8 hours). */
export function nextFundingTime(now: number, intervalMs: number): number {
  return (Math.floor(now / intervalMs) + 1) * intervalMs;
}

/**
 * The premium of one sample (RATE units): how far the book's impact prices stand from the index —
 * (max(0, impact bid − index) − max(0, index − impact ask)) ÷ index; 0 when a side is empty.
 */
export function samplePremium(index: bigint, impactBid: bigint | null, impactAsk: bigint | null): bigint {
  if (impactBid === null || impactAsk === null || index <= 0n) return 0n;
  const over = impactBid > index ? impactBid - index : 0n;
  const under = index > impactAsk ? index - impactAsk : 0n;
  return ((over - under) * RATE_ONE) / index;
}

export class MarkTracker {
  private basis = 0n;
  private premiumSum = 0n;
  private premiumCount = 0;
  private nextFundingAt: number;

  constructor(
    now: number,
    private readonly rules: MarkRules = DEFAULT_MARK_RULES,
  ) {
    this.nextFundingAt = nextFundingTime(now, rules.fundingIntervalMs);
  }

  /**
   * One sample (every second or so): the index and the book's impact prices. The basis (book mid −
   * index) is smoothed exponentially (weight 2 ÷ (smoothing + 1), in integers), the premium added
   * to the interval's. Answers the mark.
   */
  sample(index: bigint, impactBid: bigint | null, impactAsk: bigint | null): bigint {
    const target = impactBid !== null && impactAsk !== null ? (impactBid + impactAsk) / 2n - index : 0n;
    const n = BigInt(this.rules.smoothing + 1);
    const gap = target - this.basis;
    const step = (gap * 2n) / n;
    // At least a unit towards the target (integer division would stop short of it), never past it.
    this.basis += step !== 0n ? step : gap > 0n ? 1n : gap < 0n ? -1n : 0n;
    this.premiumSum += samplePremium(index, impactBid, impactAsk);
    this.premiumCount++;
    return markPrice(index, this.basis, this.rules.basisCap);
  }

  /** The mark for an index without a new sample (the basis as it stands). */
  markOf(index: bigint): bigint {
    return markPrice(index, this.basis, this.rules.basisCap);
  }

  /** The rate the interval's premium gives so far (what the page shows as the predicted rate). */
  predictedRate(): bigint {
    const average = this.premiumCount === 0 ? 0n : this.premiumSum / BigInt(this.premiumCount);
    return fundingRate(average, this.rules.funding);
  }

  get fundingAt(): number {
    return this.nextFundingAt;
  }

  /**
   * At or after the funding time: the rate to pay, and the next interval begins (its premium from
   * nothing). Before it: null. A funding time missed by more than an interval (the engine was
   * stopped) pays once, not once per interval missed.
   */
  fundingDue(now: number): { rate: bigint; at: number } | null {
    if (now < this.nextFundingAt) return null;
    const at = this.nextFundingAt;
    const rate = this.predictedRate();
    this.premiumSum = 0n;
    this.premiumCount = 0;
    this.nextFundingAt = nextFundingTime(now, this.rules.fundingIntervalMs);
    return { rate, at };
  }

  snapshot(): MarkState {
    return { basis: this.basis.toString(), premiumSum: this.premiumSum.toString(), premiumCount: this.premiumCount, nextFundingAt: this.nextFundingAt };
  }

  restore(state: MarkState): void {
    this.basis = BigInt(state.basis);
    this.premiumSum = BigInt(state.premiumSum);
    this.premiumCount = state.premiumCount;
    this.nextFundingAt = state.nextFundingAt;
  }
}
