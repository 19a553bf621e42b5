import { createHash } from "node:crypto";
import { accountId, accountOf, SYSTEM_OWNER, type AccountKind, type AccountRef, type Ledger, type TransferEvent } from "../ledger/ledger";

/**
 * Staking (issue 32; decision 052), pure and synchronous. A member stakes a coin in a product
 * (flexible, or fixed for 7, 30 or 90 days) at the product's yearly rate, at most 18 %.
 *
 * On the ledger each stake has an account of its own, `stake:<id>`, the member's: the principal
 * moves there from their funding account, and each day's interest from the coin's rewards account
 * (`@system/staking_rewards`, the exchange's cost of staking, which may go below zero). A
 * redemption or a maturity moves the stake's account back to funding; an early redemption of a
 * fixed stake first moves its interest back to the rewards account (forfeited).
 *
 * Interest is simple, on the principal, for the time held: `principal × rate × t`, with `t` in
 * years counted day by day in each calendar year's own length (365 or 366 days, UTC), rounded down
 * (what the exchange pays never exceeds the rate). A stake keeps the rate it was taken at (an
 * operator's change applies to new stakes). It is credited at each UTC day's start for the day
 * before (the first day pro rata from the stake's start), and to the moment of a redemption or
 * maturity; what a stake is owed is always recomputed from its period's start, so no rounding adds
 * up, and a stake's credited interest follows from its period's start and the last day credited
 * (`creditedThrough`): the query tables need no row per stake and day to restore it.
 */
export const STAKE_RATE_SCALE = 6;
export const STAKE_RATE_ONE = 10n ** BigInt(STAKE_RATE_SCALE);
/** The highest yearly rate a product may offer (spec §9: up to 18 %). */
export const MAX_STAKE_RATE = (18n * STAKE_RATE_ONE) / 100n;
export const DAY_MS = 86_400_000;
/**
 * Fixed stakes paid per tick at most: a day on which many mature is paid over a few ticks (each a
 * few seconds apart, each stake's interest still counted to its maturity), so no tick stops the
 * engine for long.
 */
export const MATURITIES_PER_TICK = 2_000;
/** The terms offered, in days (0: flexible). */
export const STAKE_TERMS = [0, 7, 30, 90] as const;

export interface StakeProduct {
  id: string;
  asset: string;
  /** Days until maturity; 0: flexible (redeemable at any time with its interest). */
  termDays: number;
  /** Yearly rate at STAKE_RATE_SCALE (0.05 → 50 000), at most MAX_STAKE_RATE. */
  yearlyRate: bigint;
  /** The most all members may hold staked in it at once (minor units). */
  cap: bigint;
  /** The smallest stake, and the most one member may hold in it (minor units). */
  minAmount: bigint;
  maxPerMember: bigint;
  /** Disabled: no new stake; those running go on to their end. */
  enabled: boolean;
}

export interface Stake {
  readonly id: string;
  readonly owner: string;
  readonly productId: string;
  principal: bigint;
  /** The yearly rate it was taken at (STAKE_RATE_SCALE). */
  readonly rate: bigint;
  /** When its interest period began (its start, or its last partial redemption). */
  periodStart: number;
  /** Interest credited in this period (minor units), what its account holds beyond the principal. */
  interest: bigint;
  /** Up to when the interest is credited (ms). */
  accruedTo: number;
  readonly createdAt: number;
  /** When a fixed stake matures (ms); null for a flexible one. */
  readonly maturesAt: number | null;
}

export type StakeCode =
  | "OK"
  | "STAKE_UNKNOWN_PRODUCT"
  | "STAKE_PRODUCT_DISABLED"
  | "STAKE_UNKNOWN_STAKE"
  | "STAKE_BAD_AMOUNT"
  | "STAKE_BELOW_MINIMUM"
  | "STAKE_ABOVE_MEMBER_LIMIT"
  | "STAKE_ABOVE_CAP"
  | "STAKE_INSUFFICIENT"
  | "STAKE_REDEEM_EXCEEDS"
  | "STAKE_FIXED_WHOLE"
  | "STAKE_BAD_RULES";

/** How a stake ended, or part of it was paid back. */
export type StakePayout = "redeemed" | "matured" | "early";

export type StakeEvent =
  | { type: "stake.invested"; stakeId: string; memberId: string; productId: string; amount: bigint }
  /** Principal and interest back to the member's funding account; `forfeited`: an early redemption's interest, back to the rewards. */
  | {
      type: "stake.paid";
      stakeId: string;
      memberId: string;
      productId: string;
      kind: StakePayout;
      principal: bigint;
      interest: bigint;
      forfeited: bigint;
      closed: boolean;
    }
  /** A day's interest credited to the stakes running (`stakes` of them were owed some). */
  | { type: "stake.accrued"; day: number; stakes: number }
  | { type: "stake.product"; productId: string };

export const stakeKind = (stakeId: string): AccountKind => `stake:${stakeId}`;
export const stakingRewardsAccount = (asset: string): AccountRef => ({ owner: SYSTEM_OWNER, kind: "staking_rewards", asset });

const YEAR_LCM = 365n * 366n;
const DENOMINATOR = STAKE_RATE_ONE * BigInt(DAY_MS) * YEAR_LCM;

/** Whether a UTC year has 366 days. */
const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** The UTC year holding a moment: its start, its end and its weight (the other year length), the last one asked kept (most calls fall in it). */
let lastYear = { start: 0, end: 0, weight: 0n };
function yearOf(at: number): { start: number; end: number; weight: bigint } {
  if (at >= lastYear.start && at < lastYear.end) return lastYear;
  const year = new Date(at).getUTCFullYear();
  lastYear = { start: Date.UTC(year, 0, 1), end: Date.UTC(year + 1, 0, 1), weight: isLeap(year) ? 365n : 366n };
  return lastYear;
}

/**
 * The interest of `principal` at `rate` from `from` to `to` (ms), rounded down: each calendar
 * year's part weighed by that year's own length. Exact: the parts are summed over a common
 * denominator (365 × 366 days) before the one division.
 */
export function interestFor(principal: bigint, rate: bigint, from: number, to: number): bigint {
  if (to <= from || principal <= 0n || rate <= 0n) return 0n;
  let weighted = 0n;
  let at = from;
  while (at < to) {
    const year = yearOf(at);
    const end = Math.min(to, year.end);
    weighted += BigInt(end - at) * year.weight;
    at = end;
  }
  return (principal * rate * weighted) / DENOMINATOR;
}

/** Plain state for a snapshot: products as they are, stakes as tab lines. */
export interface StakingState {
  products: Array<Record<keyof StakeProduct, string | number | boolean>>;
  /** Lines of `id, owner, product, principal, rate, period start, interest, accrued to, created at, matures at (or -)`. */
  stakes: string;
  /** The start of the last day whose interest was credited (ms; 0 before any). */
  creditedThrough: number;
}

export class Staking {
  readonly products = new Map<string, StakeProduct>();
  private readonly stakes = new Map<string, Stake>();
  private readonly ofMember = new Map<string, Set<Stake>>();
  /** Principal staked per product (what its cap bounds), and per member and product. */
  private readonly staked = new Map<string, bigint>();
  private readonly stakedBy = new Map<string, bigint>();
  /** The start of the next UTC day whose interest is owed, and the earliest maturity (no scan before either). */
  private nextDayStart = Number.POSITIVE_INFINITY;
  /** Fixed stakes by maturity, soonest first (one ended early stays until it comes up, then is skipped). */
  private readonly maturing = new MaturityHeap();
  /** Each running stake's ledger account, kept (the daily accrual credits every one). */
  private readonly accountOfStake = new Map<string, ReturnType<Ledger["account"]>>();
  private readonly rewardsOf = new Map<string, ReturnType<Ledger["account"]>>();
  /** The start of the last UTC day whose interest every stake running then was credited (ms). */
  creditedThrough = 0;

  constructor(
    private readonly ledger: Ledger,
    private readonly nextId: () => string,
  ) {}

  /** Why a product's rules cannot be, or null (the caller checks its coin exists). */
  static productProblem(p: StakeProduct): string | null {
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(p.id)) return "the id is 1 to 40 letters, digits, _ or -";
    if (!(STAKE_TERMS as readonly number[]).includes(p.termDays)) return `the term is one of ${STAKE_TERMS.join(", ")} days`;
    if (p.yearlyRate < 0n || p.yearlyRate > MAX_STAKE_RATE) return "the yearly rate must be from 0 to 18 %";
    if (p.minAmount <= 0n || p.maxPerMember < p.minAmount) return "the minimum must be positive and not above the most per member";
    if (p.cap < p.maxPerMember) return "the cap must be at least the most per member";
    return null;
  }

  configureProduct(product: StakeProduct): void {
    this.products.set(product.id, product);
  }

  stake(id: string): Readonly<Stake> | undefined {
    return this.stakes.get(id);
  }

  stakesOf(owner: string): ReadonlySet<Readonly<Stake>> {
    return this.ofMember.get(owner) ?? new Set();
  }

  allStakes(): IterableIterator<Readonly<Stake>> {
    return this.stakes.values();
  }

  get stakeCount(): number {
    return this.stakes.size;
  }

  /** Principal staked in a product, by everyone or by one member. */
  stakedIn(productId: string, owner?: string): bigint {
    return (owner === undefined ? this.staked.get(productId) : this.stakedBy.get(`${owner}|${productId}`)) ?? 0n;
  }

  productOf(stake: Readonly<Stake>): StakeProduct {
    return this.products.get(stake.productId)!;
  }

  /** What a stake would be paid at `at` on top of the interest credited: its interest since its last credit. */
  pendingInterest(stake: Readonly<Stake>, at: number): bigint {
    const to = stake.maturesAt === null ? at : Math.min(at, stake.maturesAt);
    return interestFor(stake.principal, stake.rate, stake.periodStart, to) - stake.interest;
  }

  /** A new stake `id` of `amount` from the member's funding account, refused outside the product's bounds. */
  invest(id: string, owner: string, productId: string, amount: bigint, at: number, out: Array<StakeEvent | TransferEvent>): StakeCode {
    const p = this.products.get(productId);
    if (!p) return "STAKE_UNKNOWN_PRODUCT";
    if (!p.enabled) return "STAKE_PRODUCT_DISABLED";
    if (amount <= 0n || !Number.isSafeInteger(at)) return "STAKE_BAD_AMOUNT";
    if (amount < p.minAmount) return "STAKE_BELOW_MINIMUM";
    if (this.stakedIn(productId, owner) + amount > p.maxPerMember) return "STAKE_ABOVE_MEMBER_LIMIT";
    if (this.stakedIn(productId) + amount > p.cap) return "STAKE_ABOVE_CAP";
    const funding = this.ledger.account({ owner, kind: "funding", asset: p.asset });
    if (funding.posted - funding.held < amount) return "STAKE_INSUFFICIENT";
    out.push(this.move(funding, this.stakeAccount(owner, id, p), amount));
    const stake: Stake = {
      id,
      owner,
      productId,
      principal: amount,
      rate: p.yearlyRate,
      periodStart: at,
      interest: 0n,
      accruedTo: at,
      createdAt: at,
      maturesAt: p.termDays === 0 ? null : at + p.termDays * DAY_MS,
    };
    this.add(stake);
    out.push({ type: "stake.invested", stakeId: id, memberId: owner, productId, amount });
    return "OK";
  }

  /** Why `take` of a stake cannot be redeemed (none or more than it holds, part of a fixed one), or null. */
  static redemptionProblem(stake: Readonly<Stake>, take: bigint): "STAKE_BAD_AMOUNT" | "STAKE_REDEEM_EXCEEDS" | "STAKE_FIXED_WHOLE" | null {
    if (take <= 0n) return "STAKE_BAD_AMOUNT";
    if (take > stake.principal) return "STAKE_REDEEM_EXCEEDS";
    if (stake.maturesAt !== null && take !== stake.principal) return "STAKE_FIXED_WHOLE";
    return null;
  }

  /**
   * A member takes a stake back at `at`. Flexible: `amount` of its principal (all of it when null)
   * with all its interest so far. Fixed: the whole stake only; before maturity its interest is
   * forfeited (back to the rewards account), after it paid in full.
   */
  redeem(owner: string, stakeId: string, amount: bigint | null, at: number, out: Array<StakeEvent | TransferEvent>): StakeCode {
    const stake = this.stakes.get(stakeId);
    if (!stake || stake.owner !== owner) return "STAKE_UNKNOWN_STAKE";
    if (!Number.isSafeInteger(at)) return "STAKE_BAD_AMOUNT";
    const take = amount ?? stake.principal;
    const problem = Staking.redemptionProblem(stake, take);
    if (problem) return problem;
    if (stake.maturesAt !== null && at < stake.maturesAt) {
      this.payOut(stake, "early", take, out, this.pendingInterest(stake, at));
      return "OK";
    }
    this.credit(stake, stake.maturesAt === null ? at : Math.min(at, stake.maturesAt), out);
    this.payOut(stake, stake.maturesAt === null ? "redeemed" : "matured", take, out);
    return "OK";
  }

  /** When a tick next has work: the next day's start or the next maturity (infinite with no stake running). */
  nextDue(): number {
    return this.stakes.size === 0 ? Number.POSITIVE_INFINITY : Math.min(this.nextDayStart, this.nextMaturityAt());
  }

  /**
   * The staking loop's clock: at each UTC day's start every stake is credited its interest up to
   * it; fixed stakes whose time has come are credited to their maturity and paid out, at most
   * MATURITIES_PER_TICK of them (the rest at the next ticks: `nextDue` says they are due).
   */
  tick(at: number, out: Array<StakeEvent | TransferEvent>): void {
    for (let paid = 0; paid < MATURITIES_PER_TICK && this.nextMaturityAt() <= at; paid++) {
      const stake = this.maturing.pop()!;
      this.credit(stake, stake.maturesAt!, out);
      this.payOut(stake, "matured", stake.principal, out);
    }
    if (at < this.nextDayStart) return;
    const dayStart = Math.floor(at / DAY_MS) * DAY_MS;
    let credited = 0;
    for (const stake of this.stakes.values()) if (this.credit(stake, dayStart, out) > 0n) credited++;
    this.nextDayStart = dayStart + DAY_MS;
    this.creditedThrough = dayStart;
    out.push({ type: "stake.accrued", day: dayStart / DAY_MS, stakes: credited });
  }

  /** Credits a stake's interest up to `to` (never past its maturity), from the rewards account to its own; answers what it credited. */
  private credit(stake: Stake, to: number, out: Array<StakeEvent | TransferEvent>): bigint {
    const until = stake.maturesAt === null ? to : Math.min(to, stake.maturesAt);
    if (until <= stake.accruedTo) return 0n;
    const p = this.productOf(stake);
    const owed = interestFor(stake.principal, stake.rate, stake.periodStart, until);
    const due = owed - stake.interest;
    stake.accruedTo = until;
    if (due <= 0n) return 0n;
    out.push(this.move(this.rewards(p.asset), this.stakeAccount(stake.owner, stake.id, p), due));
    stake.interest = owed;
    return due;
  }

  /**
   * `principal` of a stake and its credited interest out of its account; early, the credited
   * interest goes back to the rewards account instead, and what is forfeited (told) is that and
   * `uncredited`, the interest since the last day credited, never paid.
   */
  private payOut(stake: Stake, kind: StakePayout, principal: bigint, out: Array<StakeEvent | TransferEvent>, uncredited = 0n): void {
    const p = this.productOf(stake);
    const account = this.stakeAccount(stake.owner, stake.id, p);
    const funding = this.ledger.account({ owner: stake.owner, kind: "funding", asset: p.asset });
    const forfeited = kind === "early" ? stake.interest + uncredited : 0n;
    const interest = kind === "early" ? 0n : stake.interest;
    if (kind === "early" && stake.interest > 0n) out.push(this.move(account, this.rewards(p.asset), stake.interest));
    out.push(this.move(account, funding, principal + interest));
    const closed = principal === stake.principal;
    this.addStaked(stake, -principal);
    if (closed) this.remove(stake);
    else {
      // A flexible stake partly redeemed: a new interest period on what is left.
      stake.principal -= principal;
      stake.periodStart = stake.accruedTo;
      stake.interest = 0n;
    }
    out.push({ type: "stake.paid", stakeId: stake.id, memberId: stake.owner, productId: stake.productId, kind, principal, interest, forfeited, closed });
  }

  private stakeAccount(owner: string, stakeId: string, p: StakeProduct) {
    let account = this.accountOfStake.get(stakeId);
    if (!account) this.accountOfStake.set(stakeId, (account = this.ledger.account({ owner, kind: stakeKind(stakeId), asset: p.asset })));
    return account;
  }

  /** The soonest maturity of a running fixed stake (those ended before theirs are dropped on the way). */
  private nextMaturityAt(): number {
    for (let top = this.maturing.peek(); top; top = this.maturing.peek()) {
      if (this.stakes.get(top.id) === top) return top.maturesAt!;
      this.maturing.pop();
    }
    return Number.POSITIVE_INFINITY;
  }

  private rewards(asset: string) {
    let account = this.rewardsOf.get(asset);
    if (!account) this.rewardsOf.set(asset, (account = this.ledger.account(stakingRewardsAccount(asset))));
    return account;
  }

  private move(from: ReturnType<Ledger["account"]>, to: ReturnType<Ledger["account"]>, amount: bigint): TransferEvent {
    const moved = this.ledger.moveBetween(this.nextId(), from, to, amount);
    if (typeof moved === "string") throw new Error(`a staking transfer refused by the ledger (${moved}) after its checks`);
    return moved;
  }

  private addStaked(stake: Stake, amount: bigint): void {
    this.staked.set(stake.productId, this.stakedIn(stake.productId) + amount);
    const key = `${stake.owner}|${stake.productId}`;
    const mine = (this.stakedBy.get(key) ?? 0n) + amount;
    if (mine === 0n) this.stakedBy.delete(key);
    else this.stakedBy.set(key, mine);
  }

  private add(stake: Stake): void {
    this.stakes.set(stake.id, stake);
    let set = this.ofMember.get(stake.owner);
    if (!set) this.ofMember.set(stake.owner, (set = new Set()));
    set.add(stake);
    this.addStaked(stake, stake.principal);
    const dayEnd = (Math.floor(stake.accruedTo / DAY_MS) + 1) * DAY_MS;
    if (dayEnd < this.nextDayStart) this.nextDayStart = dayEnd;
    if (stake.maturesAt !== null) this.maturing.push(stake);
  }

  private remove(stake: Stake): void {
    this.stakes.delete(stake.id);
    this.accountOfStake.delete(stake.id);
    const set = this.ofMember.get(stake.owner);
    set?.delete(stake);
    if (set?.size === 0) this.ofMember.delete(stake.owner);
  }

  /** Each stake's account holds its principal and credited interest, and no stake account holds anything without a stake. */
  checkInvariants(): string[] {
    const problems: string[] = [];
    for (const stake of this.stakes.values()) {
      const id = accountId({ owner: stake.owner, kind: stakeKind(stake.id), asset: this.productOf(stake).asset });
      const posted = this.ledger.balanceOf(id).posted;
      if (posted !== stake.principal + stake.interest) problems.push(`${id} ${posted}, its stake holds ${stake.principal}+${stake.interest}`);
    }
    for (const [id, posted] of this.ledger.accounts()) {
      const { kind } = accountOf(id);
      if (posted !== 0n && kind.startsWith("stake:") && !this.stakes.has(kind.slice(6))) problems.push(`${id} ${posted} without a stake`);
    }
    return problems;
  }

  stateHash(): string {
    const hash = createHash("sha256");
    for (const id of [...this.products.keys()].sort()) hash.update(`product ${JSON.stringify(productState(this.products.get(id)!))};`);
    for (const id of [...this.stakes.keys()].sort()) hash.update(`stake ${stakeLine(this.stakes.get(id)!)};`);
    hash.update(`credited ${this.creditedThrough};`);
    return hash.digest("hex");
  }

  snapshot(): StakingState {
    return {
      products: [...this.products.values()].map(productState),
      stakes: [...this.stakes.values()].map(stakeLine).join("\n"),
      creditedThrough: this.creditedThrough,
    };
  }

  /** Puts a snapshot's (or the tables') state back; the ledger's balances are restored apart. */
  restore(state: StakingState): void {
    for (const p of state.products) this.configureProduct(productFromState(p));
    this.creditedThrough = state.creditedThrough;
    for (const line of state.stakes === "" ? [] : state.stakes.split("\n")) this.restoreStake(stakeFromLine(line));
  }

  /**
   * A running stake from the query tables (its principal, rate and period), its credited interest
   * recomputed: credited up to the last day credited, or its period's start if later. Call after
   * `creditedThrough` is set.
   */
  restoreFromRow(row: Pick<Stake, "id" | "owner" | "productId" | "principal" | "rate" | "periodStart" | "createdAt" | "maturesAt">): void {
    const accruedTo = Math.max(row.periodStart, row.maturesAt === null ? this.creditedThrough : Math.min(this.creditedThrough, row.maturesAt));
    this.restoreStake({ ...row, accruedTo, interest: interestFor(row.principal, row.rate, row.periodStart, accruedTo) });
  }

  restoreStake(stake: Stake): void {
    this.add({ ...stake });
  }
}

function productState(p: StakeProduct): Record<keyof StakeProduct, string | number | boolean> {
  return {
    id: p.id,
    asset: p.asset,
    termDays: p.termDays,
    yearlyRate: p.yearlyRate.toString(),
    cap: p.cap.toString(),
    minAmount: p.minAmount.toString(),
    maxPerMember: p.maxPerMember.toString(),
    enabled: p.enabled,
  };
}

function productFromState(s: Record<keyof StakeProduct, string | number | boolean>): StakeProduct {
  return {
    id: String(s.id),
    asset: String(s.asset),
    termDays: Number(s.termDays),
    yearlyRate: BigInt(String(s.yearlyRate)),
    cap: BigInt(String(s.cap)),
    minAmount: BigInt(String(s.minAmount)),
    maxPerMember: BigInt(String(s.maxPerMember)),
    enabled: s.enabled === true,
  };
}

const stakeLine = (s: Stake) =>
  [s.id, s.owner, s.productId, s.principal, s.rate, s.periodStart, s.interest, s.accruedTo, s.createdAt, s.maturesAt ?? "-"].join("\t");

function stakeFromLine(line: string): Stake {
  const [id, owner, productId, principal, rate, periodStart, interest, accruedTo, createdAt, maturesAt] = line.split("\t") as string[];
  return {
    id: id!,
    owner: owner!,
    productId: productId!,
    principal: BigInt(principal!),
    rate: BigInt(rate!),
    periodStart: Number(periodStart),
    interest: BigInt(interest!),
    accruedTo: Number(accruedTo),
    createdAt: Number(createdAt),
    maturesAt: maturesAt === "-" ? null : Number(maturesAt),
  };
}

/** A binary min-heap of fixed stakes by maturity, then id (so the order they are paid in never depends on how they were loaded). */
class MaturityHeap {
  private readonly items: Stake[] = [];

  peek(): Stake | undefined {
    return this.items[0];
  }

  push(stake: Stake): void {
    const items = this.items;
    items.push(stake);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  pop(): Stake | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let least = i;
        if (left < items.length && before(items[left]!, items[least]!)) least = left;
        if (right < items.length && before(items[right]!, items[least]!)) least = right;
        if (least === i) break;
        [items[i], items[least]] = [items[least]!, items[i]!];
        i = least;
      }
    }
    return top;
  }
}

const before = (a: Stake, b: Stake) => a.maturesAt! < b.maturesAt! || (a.maturesAt === b.maturesAt && a.id < b.id);
