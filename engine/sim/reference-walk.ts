/**
 * The reference price a demo market's simulated liquidity quotes around: a mean-reverting walk
 * (Ornstein–Uhlenbeck on the log of the price) that returns to the market's anchor price with a
 * half-life of days, so a demo market moves a few percent a day like a real one, and never
 * wanders off (the first walk, without reversion and at 0.15 % a second, lost 11 % in 26 minutes).
 *
 * The walk's state is a ratio (a float: the log of price over anchor); the price it answers is a
 * bigint number of minor units on the tick grid, like every price the engine sees.
 */
export interface ReferenceWalkOptions {
  /** The price the walk reverts to (minor units). */
  anchor: bigint;
  /** Where it starts (minor units): the last close the charts show, so live candles join them. */
  start: bigint;
  /** Standard deviation of a day's log return, e.g. 0.02 (a day's range is about 1.6 times it). */
  volatilityPerDay: number;
  /** Days for a distance from the anchor to halve on average. */
  halfLifeDays?: number;
  tick: bigint;
  random: () => number;
}

const DAY_SECONDS = 86_400;
export const HALF_LIFE_DAYS = 2;
/**
 * A hard band around the anchor, in standard deviations of where the walk settles: a step that
 * would leave it is reflected back, so no run of bad luck (or replayed seed) drifts away.
 */
const BAND_DEVIATIONS = 4;
/** Steps are Gaussian, cut at this many deviations: one step is never a jump. */
const MAX_STEP_DEVIATIONS = 4;
const RATIO_UNIT = 1_000_000_000;

export class ReferenceWalk {
  private logRatio: number;
  private current: bigint;
  private readonly reversionPerDay: number;
  private readonly band: number;

  constructor(private readonly o: ReferenceWalkOptions) {
    this.reversionPerDay = Math.LN2 / (o.halfLifeDays ?? HALF_LIFE_DAYS);
    this.band = (BAND_DEVIATIONS * o.volatilityPerDay) / Math.sqrt(2 * this.reversionPerDay);
    this.current = o.start;
    this.logRatio = Math.log(Number(o.start) / Number(o.anchor));
  }

  /** The reference price now (minor units, a multiple of the tick). */
  get price(): bigint {
    return this.current;
  }

  /**
   * Puts the walk at `price` (an operator's test hook: a market moved on purpose, so that contract
   * marks, liquidations and stops can be seen working). It goes on walking from there, reverting
   * to the anchor only over days.
   */
  moveTo(price: bigint): bigint {
    const onGrid = (price / this.o.tick) * this.o.tick;
    this.current = onGrid < this.o.tick ? this.o.tick : onGrid;
    this.logRatio = Math.log(Number(this.current) / Number(this.o.anchor));
    return this.current;
  }

  /** Moves the walk on by `seconds` (exact for any step length: a second, or a minute in tests). */
  step(seconds: number): bigint {
    if (seconds <= 0) return this.current;
    const decay = Math.exp((-this.reversionPerDay * seconds) / DAY_SECONDS);
    const deviation = this.o.volatilityPerDay * Math.sqrt((1 - decay * decay) / (2 * this.reversionPerDay));
    const previous = this.logRatio;
    let next = previous * decay + deviation * gaussian(this.o.random);
    if (Math.abs(next) > this.band) {
      const edge = Math.sign(next) * this.band;
      // Reflected back inside; a walk that started outside the band only ever moves back towards it.
      next = Math.abs(previous) <= this.band ? 2 * edge - next : Math.sign(next) * Math.min(Math.abs(next), Math.abs(previous));
    }
    this.logRatio = next;
    const scaled = (this.o.anchor * BigInt(Math.round(Math.exp(next) * RATIO_UNIT))) / BigInt(RATIO_UNIT);
    const onGrid = (scaled / this.o.tick) * this.o.tick;
    this.current = onGrid < this.o.tick ? this.o.tick : onGrid;
    return this.current;
  }
}

/** A standard normal draw (Box–Muller), cut at ±MAX_STEP_DEVIATIONS. */
export function gaussian(random: () => number): number {
  const u = random() || Number.MIN_VALUE;
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  return Math.max(-MAX_STEP_DEVIATIONS, Math.min(MAX_STEP_DEVIATIONS, z));
}
