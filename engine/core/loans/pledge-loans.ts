import { createHash } from "node:crypto";
import { accountId, accountOf, SYSTEM_OWNER, type AccountKind, type AccountRef, type Ledger, type TransferEvent } from "../ledger/ledger";
import { HOUR_MS, MARGIN_RATE_SCALE } from "../margin/margin";

/**
 * Crypto loans against collateral ("pledge loans", issue 31; decision 051), pure and synchronous.
 * A member pledges a coin (the collateral) and borrows the quote coin of the market where it
 * trades (USDT against BTC on BTC/USDT): the loan's value over the collateral's, at that market's
 * last price, is its loan-to-value (LTV).
 *
 * On the ledger each loan has two accounts of its own: `pledge:<id>` holds its collateral (moved
 * from the member's funding account), and `pledge_debt:<id>` is minus what the member owes (the
 * principal moved from it to their funding account, each hour's interest from it to the pool's
 * `pledge_lending` account). A repayment moves from funding back to the debt account, interest
 * first; the last one returns the collateral. Every asset still sums to zero.
 *
 * Rates are hourly at `MARGIN_RATE_SCALE` decimals, and an hour begun is an hour charged (the first
 * at borrowing), on the principal, rounded up; an hour that begins after a term loan's due time is
 * charged at the product's overdue rate instead. LTVs are fractions at `LTV_SCALE` decimals: a
 * borrow or a collateral withdrawal must leave the loan at or under the initial LTV; at the
 * margin-call LTV the member is warned (once per rise); at the liquidation LTV the core sells the
 * collateral through the spot book (`ExchangeCore.liquidatePledge`).
 */
export const LTV_SCALE = 4;
export const LTV_ONE = 10n ** BigInt(LTV_SCALE);
const RATE_ONE = 10n ** BigInt(MARGIN_RATE_SCALE);
const DAY_MS = 86_400_000;
/** The terms offered, in days (0: flexible, no due date). */
export const PLEDGE_TERMS = [0, 7, 30, 90, 180] as const;

/** One loan product: a loan coin against a collateral coin for a term. */
export interface PledgeProduct {
  id: string;
  loanAsset: string;
  collateralAsset: string;
  /** Days until due; 0: flexible (no due date). */
  termDays: number;
  /** Hourly rates at MARGIN_RATE_SCALE: before the due time, and (a penalty) after it. */
  hourlyRate: bigint;
  overdueRate: bigint;
  /** LTVs at LTV_SCALE: the most at borrowing, the margin call, the liquidation. */
  initialLtv: bigint;
  callLtv: bigint;
  liquidationLtv: bigint;
  /** The smallest and largest loan (minor units of the loan coin). */
  minAmount: bigint;
  maxAmount: bigint;
  /** Disabled: no new loan; open ones run on. */
  enabled: boolean;
}

export interface PledgeLoan {
  readonly id: string;
  readonly owner: string;
  readonly productId: string;
  principal: bigint;
  interest: bigint;
  /** The hour (ms ÷ HOUR_MS) whose start charges it next. */
  nextHour: number;
  /** When a term loan is due (ms); null for a flexible one. */
  readonly dueAt: number | null;
  readonly createdAt: number;
  /** Told its LTV reached the margin call, until it falls back under it. */
  warned: boolean;
}

export type PledgeCode =
  | "OK"
  | "PLEDGE_UNKNOWN_PRODUCT"
  | "PLEDGE_PRODUCT_DISABLED"
  | "PLEDGE_UNKNOWN_LOAN"
  | "PLEDGE_BAD_AMOUNT"
  | "PLEDGE_BELOW_MINIMUM"
  | "PLEDGE_ABOVE_MAXIMUM"
  | "PLEDGE_NO_PRICE"
  | "PLEDGE_LTV_TOO_HIGH"
  | "PLEDGE_INSUFFICIENT"
  | "PLEDGE_REPAY_EXCEEDS"
  | "PLEDGE_BAD_RULES";

export type PledgeEvent =
  | { type: "pledge.borrowed"; loanId: string; memberId: string; productId: string; amount: bigint; collateral: bigint; interest: bigint }
  | { type: "pledge.repaid"; loanId: string; memberId: string; productId: string; principal: bigint; interest: bigint; closed: boolean }
  | { type: "pledge.collateral"; loanId: string; memberId: string; productId: string; amount: bigint; direction: "add" | "remove" }
  | { type: "pledge.accrued"; hour: number; loans: number }
  | { type: "pledge.ltv"; loanId: string; memberId: string; warned: boolean; ltv: bigint | null }
  | { type: "pledge.product"; productId: string }
  /** A liquidation begins (the LTV reached the product's line): the collateral is sold on its market. */
  | { type: "pledge.liquidating"; loanId: string; memberId: string; ltv: bigint | null }
  /** Its sale on the market (the spot events of the sale follow, up to the next pledge event). */
  | { type: "pledge.liquidation_step"; loanId: string; memberId: string; symbol: string }
  /** The sale's proceeds repaid the loan; what they could not, the pool wrote off; what was left went back to the member. */
  | { type: "pledge.liquidated"; loanId: string; memberId: string; productId: string; repaid: bigint; writtenOff: bigint; closed: boolean };

export const collateralKind = (loanId: string): AccountKind => `pledge:${loanId}`;
export const debtKind = (loanId: string): AccountKind => `pledge_debt:${loanId}`;
export const pledgePoolAccount = (asset: string): AccountRef => ({ owner: SYSTEM_OWNER, kind: "pledge_lending", asset });

/** The last price of a market (`BTC/USDT`) at `scale` decimals, or null before its first trade. */
export type MarketPriceOf = (symbol: string) => { price: bigint; scale: number } | null;

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/** Plain state for a snapshot: products as they are, loans as tab lines. */
export interface PledgeState {
  products: Array<Record<keyof PledgeProduct, string | number | boolean>>;
  /** Lines of `id, owner, product, principal, interest, next hour, due at (or -), created at, warned (1/0)`. */
  loans: string;
}

export class PledgeLoans {
  readonly products = new Map<string, PledgeProduct>();
  private readonly loans = new Map<string, PledgeLoan>();
  private readonly ofMember = new Map<string, Set<PledgeLoan>>();
  /** The earliest hour some loan is charged next. */
  private dueHour = Number.POSITIVE_INFINITY;

  constructor(
    private readonly ledger: Ledger,
    private readonly priceOf: MarketPriceOf,
    private readonly nextId: () => string,
  ) {}

  /** Why a product's rules cannot be, or null (the caller checks its market exists). */
  static productProblem(p: PledgeProduct): string | null {
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(p.id)) return "the id is 1 to 40 letters, digits, _ or -";
    if (p.loanAsset === p.collateralAsset) return "the loan and the collateral must be different coins";
    if (!(PLEDGE_TERMS as readonly number[]).includes(p.termDays)) return `the term is one of ${PLEDGE_TERMS.join(", ")} days`;
    if (p.hourlyRate < 0n || p.hourlyRate > RATE_ONE / 100n) return "the hourly rate must be from 0 to 1 %";
    if (p.overdueRate < p.hourlyRate || p.overdueRate > RATE_ONE / 100n) return "the overdue rate must be from the hourly rate to 1 %";
    if (!(0n < p.initialLtv && p.initialLtv < p.callLtv && p.callLtv < p.liquidationLtv && p.liquidationLtv < LTV_ONE))
      return "the LTVs must rise: 0 < initial < margin call < liquidation < 100 %";
    if (p.minAmount <= 0n || p.maxAmount < p.minAmount) return "the minimum must be positive and not above the maximum";
    return null;
  }

  configureProduct(product: PledgeProduct): void {
    this.products.set(product.id, product);
  }

  loan(id: string): Readonly<PledgeLoan> | undefined {
    return this.loans.get(id);
  }

  loansOf(owner: string): ReadonlySet<Readonly<PledgeLoan>> {
    return this.ofMember.get(owner) ?? new Set();
  }

  allLoans(): IterableIterator<Readonly<PledgeLoan>> {
    return this.loans.values();
  }

  get loanCount(): number {
    return this.loans.size;
  }

  productOf(loan: Readonly<PledgeLoan>): PledgeProduct {
    return this.products.get(loan.productId)!;
  }

  /** The market a product's collateral is priced and sold on. */
  static marketOf(p: Pick<PledgeProduct, "collateralAsset" | "loanAsset">): string {
    return `${p.collateralAsset}/${p.loanAsset}`;
  }

  /** The collateral a loan holds (its account's balance). */
  collateralOf(loan: Readonly<PledgeLoan>): bigint {
    return this.ledger.posted({ owner: loan.owner, kind: collateralKind(loan.id), asset: this.productOf(loan).collateralAsset });
  }

  /**
   * `debt ÷ (collateral × price)` at LTV_SCALE, rounded up; null without a price. `collateral` is in
   * its coin's minor units at `collateralScale`, `debt` in the loan coin's at `loanScale`.
   */
  ltv(p: PledgeProduct, debt: bigint, collateral: bigint, collateralScale: number, loanScale: number): bigint | null {
    const quote = this.priceOf(PledgeLoans.marketOf(p));
    if (!quote) return null;
    // collateral value in the loan coin's minor units = collateral × price × 10^loanScale ÷ 10^(collateralScale + priceScale)
    const num = debt * LTV_ONE * 10n ** BigInt(collateralScale + quote.scale);
    const den = collateral * quote.price * 10n ** BigInt(loanScale);
    if (den === 0n) return debt === 0n ? 0n : LTV_ONE * 1000n;
    return ceilDiv(num, den);
  }

  /** The most a collateral amount lets a member borrow at a product's initial LTV (rounded down), or null without a price. */
  maxLoan(p: PledgeProduct, collateral: bigint, collateralScale: number, loanScale: number): bigint | null {
    const quote = this.priceOf(PledgeLoans.marketOf(p));
    if (!quote) return null;
    return (collateral * quote.price * p.initialLtv * 10n ** BigInt(loanScale)) / (LTV_ONE * 10n ** BigInt(collateralScale + quote.scale));
  }

  /** The first hour's interest of a loan of `amount` (what the calculator shows). */
  static firstHourInterest(p: PledgeProduct, amount: bigint): bigint {
    return ceilDiv(amount * p.hourlyRate, RATE_ONE);
  }

  /**
   * A new loan `id`: `collateral` moves from the member's funding account to the loan's, `amount`
   * of the loan coin from the loan's debt account to their funding account, and the first hour's
   * interest is charged. Refused over the initial LTV, outside the product's bounds, or without a price.
   */
  borrow(
    id: string,
    owner: string,
    productId: string,
    amount: bigint,
    collateral: bigint,
    scales: { loan: number; collateral: number },
    at: number,
    out: Array<PledgeEvent | TransferEvent>,
  ): PledgeCode {
    const p = this.products.get(productId);
    if (!p) return "PLEDGE_UNKNOWN_PRODUCT";
    if (!p.enabled) return "PLEDGE_PRODUCT_DISABLED";
    if (amount <= 0n || collateral <= 0n) return "PLEDGE_BAD_AMOUNT";
    if (amount < p.minAmount) return "PLEDGE_BELOW_MINIMUM";
    if (amount > p.maxAmount) return "PLEDGE_ABOVE_MAXIMUM";
    const ltv = this.ltv(p, amount, collateral, scales.collateral, scales.loan);
    if (ltv === null) return "PLEDGE_NO_PRICE";
    if (ltv > p.initialLtv) return "PLEDGE_LTV_TOO_HIGH";
    const funding = this.ledger.account({ owner, kind: "funding", asset: p.collateralAsset });
    if (funding.posted - funding.held < collateral) return "PLEDGE_INSUFFICIENT";
    out.push(this.move(funding, this.ledger.account({ owner, kind: collateralKind(id), asset: p.collateralAsset }), collateral));
    out.push(this.move(this.debtAccount(owner, id, p), this.ledger.account({ owner, kind: "funding", asset: p.loanAsset }), amount));
    const loan: PledgeLoan = {
      id,
      owner,
      productId,
      principal: amount,
      interest: 0n,
      nextHour: Math.floor(at / HOUR_MS) + 1,
      dueAt: p.termDays === 0 ? null : at + p.termDays * DAY_MS,
      createdAt: at,
      warned: false,
    };
    this.add(loan);
    const interest = this.charge(loan, p, amount * p.hourlyRate, out);
    out.push({ type: "pledge.borrowed", loanId: id, memberId: owner, productId, amount, collateral, interest });
    return "OK";
  }

  /** Pays back `amount` of a loan from the member's funding account, interest first; the last payment returns the collateral. */
  repay(owner: string, loanId: string, amount: bigint, out: Array<PledgeEvent | TransferEvent>): PledgeCode {
    const loan = this.loans.get(loanId);
    if (!loan || loan.owner !== owner) return "PLEDGE_UNKNOWN_LOAN";
    if (amount <= 0n) return "PLEDGE_BAD_AMOUNT";
    if (amount > loan.principal + loan.interest) return "PLEDGE_REPAY_EXCEEDS";
    const p = this.productOf(loan);
    const funding = this.ledger.account({ owner, kind: "funding", asset: p.loanAsset });
    if (funding.posted - funding.held < amount) return "PLEDGE_INSUFFICIENT";
    out.push(this.move(funding, this.debtAccount(owner, loanId, p), amount));
    this.settle(loan, amount, out);
    return "OK";
  }

  /** Adds collateral from the funding account, or takes some back while the loan stays at or under the initial LTV. */
  changeCollateral(
    owner: string,
    loanId: string,
    amount: bigint,
    direction: "add" | "remove",
    scales: { loan: number; collateral: number },
    out: Array<PledgeEvent | TransferEvent>,
  ): PledgeCode {
    const loan = this.loans.get(loanId);
    if (!loan || loan.owner !== owner) return "PLEDGE_UNKNOWN_LOAN";
    if (amount <= 0n) return "PLEDGE_BAD_AMOUNT";
    const p = this.productOf(loan);
    const funding = this.ledger.account({ owner, kind: "funding", asset: p.collateralAsset });
    const pledged = this.ledger.account({ owner, kind: collateralKind(loanId), asset: p.collateralAsset });
    if (direction === "add") {
      if (funding.posted - funding.held < amount) return "PLEDGE_INSUFFICIENT";
      out.push(this.move(funding, pledged, amount));
    } else {
      if (pledged.posted - pledged.held < amount) return "PLEDGE_INSUFFICIENT";
      const ltv = this.ltv(p, loan.principal + loan.interest, pledged.posted - amount, scales.collateral, scales.loan);
      if (ltv === null) return "PLEDGE_NO_PRICE";
      if (ltv > p.initialLtv) return "PLEDGE_LTV_TOO_HIGH";
      out.push(this.move(pledged, funding, amount));
    }
    out.push({ type: "pledge.collateral", loanId, memberId: owner, productId: loan.productId, amount, direction });
    return "OK";
  }

  /** Every loan whose next hour has begun is charged for each hour begun since: the product's rate before the due time, the overdue rate after. */
  accrue(at: number, out: Array<PledgeEvent | TransferEvent>): void {
    const hour = Math.floor(at / HOUR_MS);
    if (hour < this.dueHour) return;
    let charged = 0;
    let due = Number.POSITIVE_INFINITY;
    for (const loan of this.loans.values()) {
      if (loan.nextHour <= hour) {
        const p = this.productOf(loan);
        // Hours nextHour..hour; those starting at or after the due time are overdue.
        const firstOverdue = loan.dueAt === null ? Number.POSITIVE_INFINITY : Math.ceil(loan.dueAt / HOUR_MS);
        const all = hour - loan.nextHour + 1;
        const overdue = Math.max(0, Math.min(all, hour - Math.max(firstOverdue, loan.nextHour) + 1));
        const scaled = loan.principal * (p.hourlyRate * BigInt(all - overdue) + p.overdueRate * BigInt(overdue));
        loan.nextHour = hour + 1;
        if (scaled > 0n) {
          this.charge(loan, p, scaled, out);
          charged++;
        }
      }
      if (loan.nextHour < due) due = loan.nextHour;
    }
    this.dueHour = due;
    out.push({ type: "pledge.accrued", hour, loans: charged });
  }

  /**
   * Each loan's LTV against its margin call (one `pledge.ltv` event when it reaches it, one when it
   * falls back under) and its liquidation line: answers the loans to liquidate.
   */
  watch(scaleOf: (asset: string) => number, out: Array<PledgeEvent | TransferEvent>): PledgeLoan[] {
    const liquidate: PledgeLoan[] = [];
    for (const loan of this.loans.values()) {
      const p = this.productOf(loan);
      const ltv = this.ltv(p, loan.principal + loan.interest, this.collateralOf(loan), scaleOf(p.collateralAsset), scaleOf(p.loanAsset));
      if (ltv === null) continue;
      const called = ltv >= p.callLtv;
      if (called !== loan.warned) {
        loan.warned = called;
        out.push({ type: "pledge.ltv", loanId: loan.id, memberId: loan.owner, warned: called, ltv });
      }
      if (ltv >= p.liquidationLtv) liquidate.push(loan);
    }
    return liquidate;
  }

  /**
   * After a liquidation's sale: the loan coin the collateral account got repays the loan (interest
   * first); with `writeOff` (nothing left to sell) what is still owed is taken by the pool, whose
   * account may go below zero. What is left in the loan's account (coin or collateral) goes back to
   * the member once the loan is closed. Answers what was repaid and written off.
   */
  settleLiquidation(loanId: string, writeOff: boolean, out: Array<PledgeEvent | TransferEvent>): { repaid: bigint; writtenOff: bigint; closed: boolean } {
    const loan = this.loans.get(loanId)!;
    const p = this.productOf(loan);
    const proceeds = this.ledger.account({ owner: loan.owner, kind: collateralKind(loanId), asset: p.loanAsset });
    const owed = loan.principal + loan.interest;
    const free = proceeds.posted - proceeds.held;
    const repaid = free < owed ? free : owed;
    if (repaid > 0n) {
      out.push(this.move(proceeds, this.debtAccount(loan.owner, loanId, p), repaid));
      this.settle(loan, repaid, out);
    }
    let writtenOff = 0n;
    if (this.loans.has(loanId) && writeOff) {
      writtenOff = loan.principal + loan.interest;
      out.push(this.move(this.ledger.account(pledgePoolAccount(p.loanAsset)), this.debtAccount(loan.owner, loanId, p), writtenOff));
      this.settle(loan, writtenOff, out, true);
    }
    const closed = !this.loans.has(loanId);
    // The loan closed: anything left of the sale in the loan coin goes to the member too.
    if (closed) this.returnAll(loan.owner, loanId, p.loanAsset, out);
    return { repaid, writtenOff, closed };
  }

  /** Applies a payment already moved to the debt account: interest first; a loan paid in full closes and returns its collateral. */
  private settle(loan: PledgeLoan, amount: bigint, out: Array<PledgeEvent | TransferEvent>, writtenOff = false): void {
    const interest = amount < loan.interest ? amount : loan.interest;
    const principal = amount - interest;
    loan.interest -= interest;
    loan.principal -= principal;
    const closed = loan.principal === 0n && loan.interest === 0n;
    if (closed) {
      this.returnAll(loan.owner, loan.id, this.productOf(loan).collateralAsset, out);
      this.remove(loan);
    }
    if (!writtenOff) out.push({ type: "pledge.repaid", loanId: loan.id, memberId: loan.owner, productId: loan.productId, principal, interest, closed });
  }

  /** What a loan's collateral account holds of a coin, back to the member's funding account. */
  private returnAll(owner: string, loanId: string, asset: string, out: Array<PledgeEvent | TransferEvent>): void {
    const account = this.ledger.account({ owner, kind: collateralKind(loanId), asset });
    const left = account.posted - account.held;
    if (left > 0n) out.push(this.move(account, this.ledger.account({ owner, kind: "funding", asset }), left));
  }

  private debtAccount(owner: string, loanId: string, p: PledgeProduct) {
    return this.ledger.account({ owner, kind: debtKind(loanId), asset: p.loanAsset });
  }

  private move(from: ReturnType<Ledger["account"]>, to: ReturnType<Ledger["account"]>, amount: bigint): TransferEvent {
    const moved = this.ledger.moveBetween(this.nextId(), from, to, amount);
    if (typeof moved === "string") throw new Error(`a pledge-loan transfer refused by the ledger (${moved}) after its checks`);
    return moved;
  }

  /** Interest of `scaled` (at MARGIN_RATE_SCALE), rounded up: from the loan's debt account to the pool. */
  private charge(loan: PledgeLoan, p: PledgeProduct, scaled: bigint, out: Array<PledgeEvent | TransferEvent>): bigint {
    const interest = ceilDiv(scaled, RATE_ONE);
    if (interest === 0n) return 0n;
    out.push(this.move(this.debtAccount(loan.owner, loan.id, p), this.ledger.account(pledgePoolAccount(p.loanAsset)), interest));
    loan.interest += interest;
    return interest;
  }

  private add(loan: PledgeLoan): void {
    this.loans.set(loan.id, loan);
    let set = this.ofMember.get(loan.owner);
    if (!set) this.ofMember.set(loan.owner, (set = new Set()));
    set.add(loan);
    if (loan.nextHour < this.dueHour) this.dueHour = loan.nextHour;
  }

  private remove(loan: PledgeLoan): void {
    this.loans.delete(loan.id);
    const set = this.ofMember.get(loan.owner);
    set?.delete(loan);
    if (set?.size === 0) this.ofMember.delete(loan.owner);
  }

  /** Each loan's debt equals minus its debt account, and no pledge account holds anything without an open loan. */
  checkInvariants(): string[] {
    const problems: string[] = [];
    for (const loan of this.loans.values()) {
      const id = accountId({ owner: loan.owner, kind: debtKind(loan.id), asset: this.productOf(loan).loanAsset });
      const posted = this.ledger.balanceOf(id).posted;
      if (posted !== -(loan.principal + loan.interest)) problems.push(`${id} ${posted}, its loan owes ${loan.principal}+${loan.interest}`);
    }
    for (const [id, posted] of this.ledger.accounts()) {
      const { kind } = accountOf(id);
      const loanId = kind.startsWith("pledge:") ? kind.slice(7) : kind.startsWith("pledge_debt:") ? kind.slice(12) : null;
      if (posted !== 0n && loanId !== null && !this.loans.has(loanId)) problems.push(`${id} ${posted} without an open loan`);
    }
    return problems;
  }

  stateHash(): string {
    const hash = createHash("sha256");
    for (const id of [...this.products.keys()].sort()) hash.update(`product ${JSON.stringify(productState(this.products.get(id)!))};`);
    for (const id of [...this.loans.keys()].sort()) hash.update(`loan ${loanLine(this.loans.get(id)!)};`);
    return hash.digest("hex");
  }

  snapshot(): PledgeState {
    return { products: [...this.products.values()].map(productState), loans: [...this.loans.values()].map(loanLine).join("\n") };
  }

  /** Puts a snapshot's (or the tables') state back; the ledger's balances are restored apart. */
  restore(state: PledgeState): void {
    for (const p of state.products) this.configureProduct(productFromState(p));
    for (const line of state.loans === "" ? [] : state.loans.split("\n")) this.restoreLoan(loanFromLine(line));
  }

  restoreLoan(loan: PledgeLoan): void {
    this.add({ ...loan });
  }
}

function productState(p: PledgeProduct): Record<keyof PledgeProduct, string | number | boolean> {
  return {
    id: p.id,
    loanAsset: p.loanAsset,
    collateralAsset: p.collateralAsset,
    termDays: p.termDays,
    hourlyRate: p.hourlyRate.toString(),
    overdueRate: p.overdueRate.toString(),
    initialLtv: p.initialLtv.toString(),
    callLtv: p.callLtv.toString(),
    liquidationLtv: p.liquidationLtv.toString(),
    minAmount: p.minAmount.toString(),
    maxAmount: p.maxAmount.toString(),
    enabled: p.enabled,
  };
}

function productFromState(s: Record<keyof PledgeProduct, string | number | boolean>): PledgeProduct {
  return {
    id: String(s.id),
    loanAsset: String(s.loanAsset),
    collateralAsset: String(s.collateralAsset),
    termDays: Number(s.termDays),
    hourlyRate: BigInt(String(s.hourlyRate)),
    overdueRate: BigInt(String(s.overdueRate)),
    initialLtv: BigInt(String(s.initialLtv)),
    callLtv: BigInt(String(s.callLtv)),
    liquidationLtv: BigInt(String(s.liquidationLtv)),
    minAmount: BigInt(String(s.minAmount)),
    maxAmount: BigInt(String(s.maxAmount)),
    enabled: s.enabled === true,
  };
}

const loanLine = (l: PledgeLoan) => [l.id, l.owner, l.productId, l.principal, l.interest, l.nextHour, l.dueAt ?? "-", l.createdAt, l.warned ? 1 : 0].join("\t");

function loanFromLine(line: string): PledgeLoan {
  const [id, owner, productId, principal, interest, nextHour, dueAt, createdAt, warned] = line.split("\t") as string[];
  return {
    id: id!,
    owner: owner!,
    productId: productId!,
    principal: BigInt(principal!),
    interest: BigInt(interest!),
    nextHour: Number(nextHour),
    dueAt: dueAt === "-" ? null : Number(dueAt),
    createdAt: Number(createdAt),
    warned: warned === "1",
  };
}
