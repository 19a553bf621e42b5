import { createHash } from "node:crypto";
import { accountId, accountOf, SYSTEM_OWNER, type AccountKind, type AccountRef, type Ledger, type TransferEvent } from "../ledger/ledger";

/**
 * Margin trading's money (decision 050), pure and synchronous: members' margin accounts (cross,
 * "all", one over every coin; isolated, "fixed", one per symbol), what they borrow from the
 * lending pools, the interest that accrues on it hourly, and the margin level that guards both.
 *
 * On the ledger: a borrow moves the coin from the member's loan account of that scope and coin
 * (which goes below zero: its balance is minus the debt) to their margin account; interest moves
 * from the loan account to the pool's `lending` account (the pool earns it as it accrues); a
 * repayment moves from the margin account back to the loan account. Every asset still sums to
 * zero, and a member's debt is a ledger balance they can read, entry by entry.
 *
 * Rates are hourly, at `MARGIN_RATE_SCALE` decimals. An hour begun is an hour charged: a borrow
 * pays its first hour at once, and each later hour is charged when it begins (`accrue`, from the
 * engine's clock); interest is on the principal, rounded up to the coin's unit. Margin level =
 * assets ÷ (principal + interest), both valued in the valuation coin (USDT) at each coin's last
 * spot price: assets rounded down, debts up.
 */
export const MARGIN_RATE_SCALE = 12;
const RATE_ONE = 10n ** BigInt(MARGIN_RATE_SCALE);
export const HOUR_MS = 3_600_000;
/** Level thresholds in hundredths: a warning below 1.30, liquidation at 1.10, transfers out while it stays at 2.00 or more. */
export const WARNING_LEVEL = 130n;
export const LIQUIDATION_LEVEL = 110n;
export const TRANSFER_OUT_LEVEL = 200n;
/** Cross margin's leverage (fixed), and isolated margin's default. */
export const CROSS_LEVERAGE = 3;
export const DEFAULT_ISOLATED_LEVERAGE = 5;
/** The highest isolated leverage an operator may give a pair. */
export const MAX_ISOLATED_LEVERAGE = 10;

/** "all" (cross) or the symbol of an isolated account. */
export type MarginScope = "all" | string;

/** A coin the pools lend. */
export interface LendingPoolConfig {
  asset: string;
  /** Hourly rate at MARGIN_RATE_SCALE. */
  hourlyRate: bigint;
  /** The most principal it lends at once, over every member (minor units). */
  limit: bigint;
  /** The smallest borrow (minor units). */
  minBorrow: bigint;
}

/** A symbol members can trade on margin: its coins are what its isolated account holds and cross margin may. */
export interface MarginPairConfig {
  symbol: string;
  base: string;
  quote: string;
  /** The highest isolated leverage (2 to 10). */
  maxLeverage: number;
}

/** USDT per one unit of a coin (a price at `scale` decimals), or null when it has none. */
export type PriceOf = (asset: string) => { price: bigint; scale: number } | null;

export type MarginCode =
  | "OK"
  | "MARGIN_UNKNOWN_PAIR"
  | "MARGIN_UNKNOWN_ASSET"
  | "MARGIN_BAD_AMOUNT"
  | "MARGIN_BELOW_MINIMUM"
  | "MARGIN_POOL_EXHAUSTED"
  | "MARGIN_OVER_LIMIT"
  | "MARGIN_NO_PRICE"
  | "MARGIN_INSUFFICIENT"
  | "MARGIN_REPAY_EXCEEDS"
  | "MARGIN_LEVEL_UNSAFE"
  | "MARGIN_BAD_LEVERAGE"
  | "MARGIN_BAD_RULES"
  | "MARGIN_FEES_SHORT";

/** One open debt: a member's coin borrowed in one scope. */
export interface Loan {
  readonly owner: string;
  readonly scope: MarginScope;
  readonly asset: string;
  principal: bigint;
  interest: bigint;
  /** The hour (ms ÷ HOUR_MS) whose start charges it next. */
  nextHour: number;
}

export type MarginEvent =
  | { type: "margin.borrowed"; memberId: string; scope: MarginScope; asset: string; amount: bigint; interest: bigint }
  | { type: "margin.repaid"; memberId: string; scope: MarginScope; asset: string; principal: bigint; interest: bigint }
  | { type: "margin.transferred"; memberId: string; scope: MarginScope; asset: string; amount: bigint; direction: "in" | "out" }
  | { type: "margin.accrued"; hour: number; loans: number }
  | { type: "margin.leverage"; memberId: string; symbol: string; leverage: number }
  | { type: "margin.level"; memberId: string; scope: MarginScope; warned: boolean; level: bigint | null }
  | { type: "margin.pool"; asset: string }
  /** A market put on margin or its highest leverage changed (an operator's). */
  | { type: "margin.pair"; symbol: string }
  /** An operator moved trading fees into a coin's margin insurance (the transfer is before it). */
  | { type: "margin.insurance_funded"; asset: string; amount: bigint }
  /** A forced liquidation begins: the account's orders are cancelled and its coins sold or bought through the books. */
  | { type: "margin.liquidating"; memberId: string; scope: MarginScope; level: bigint | null }
  /** One step of it on a market (the spot events of that step follow, up to the next margin event). */
  | { type: "margin.liquidation_step"; memberId: string; scope: MarginScope; symbol: string }
  /** What the account's balances could not repay, taken by the margin insurance and then the pool (the transfers are before it). */
  | { type: "margin.written_off"; memberId: string; scope: MarginScope; asset: string; insurance: bigint; pool: bigint }
  /** The liquidation is over: every loan repaid or written off, or (a market halted) what is left waits for the next tick. */
  | { type: "margin.liquidated"; memberId: string; scope: MarginScope; closed: boolean };

/** What a member's margin account is worth and owes, in the valuation coin's minor units. */
export interface MarginLevel {
  assets: bigint;
  debts: bigint;
  /** Hundredths (rounded down), or null without debt. */
  level: bigint | null;
}

export const marginKind = (scope: MarginScope): AccountKind => (scope === "all" ? "margin" : `margin:${scope}`);
export const loanKind = (scope: MarginScope): AccountKind => (scope === "all" ? "loan" : `loan:${scope}`);
const isLoanKind = (kind: AccountKind) => kind === "loan" || kind.startsWith("loan:");
export const lendingAccount = (asset: string): AccountRef => ({ owner: SYSTEM_OWNER, kind: "lending", asset });
export const marginInsuranceAccount = (asset: string): AccountRef => ({ owner: SYSTEM_OWNER, kind: "margin_insurance", asset });
const loanKey = (owner: string, scope: MarginScope, asset: string) => `${owner}|${scope}|${asset}`;
const accountKey = (owner: string, scope: MarginScope) => `${owner}|${scope}`;

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/** Plain state for a snapshot: loans as tab lines, leverages and warned accounts as pairs. */
export interface MarginState {
  pools: Array<{ asset: string; hourlyRate: string; limit: string; minBorrow: string }>;
  pairs: MarginPairConfig[];
  /** Lines of `owner, scope, asset, principal, interest, next hour`. */
  loans: string;
  leverages: Array<[owner: string, symbol: string, leverage: number]>;
  warned: Array<[owner: string, scope: MarginScope]>;
}

export class Margin {
  readonly pools = new Map<string, LendingPoolConfig>();
  readonly pairs = new Map<string, MarginPairConfig>();
  private readonly loans = new Map<string, Loan>();
  /** Each member-and-scope's loans (a level reads only its own). */
  private readonly loansOfAccount = new Map<string, Set<Loan>>();
  /** Principal lent per coin (what the pool's limit bounds). */
  private readonly lent = new Map<string, bigint>();
  private readonly leverages = new Map<string, number>();
  /** Accounts told their level fell below the warning, until it rises above it again. */
  private readonly warned = new Set<string>();
  /** The earliest hour some loan is charged next (no scan of every loan before it begins). */
  private dueHour = Number.POSITIVE_INFINITY;

  constructor(
    private readonly ledger: Ledger,
    private readonly scaleOf: (asset: string) => number,
    private readonly priceOf: PriceOf,
    private readonly nextId: () => string,
    /** The coin levels are valued in. */
    readonly valuationAsset = "USDT",
  ) {}

  configurePool(pool: LendingPoolConfig): void {
    this.pools.set(pool.asset, pool);
  }

  configurePair(pair: MarginPairConfig): void {
    this.pairs.set(pair.symbol, pair);
  }

  /** Why a pool's rules cannot be, or null. */
  static poolProblem(pool: LendingPoolConfig): string | null {
    if (pool.hourlyRate < 0n || pool.hourlyRate > RATE_ONE / 100n) return "the hourly rate must be from 0 to 1 %";
    if (pool.limit < 0n) return "the limit must not be negative";
    if (pool.minBorrow <= 0n) return "the minimum borrow must be positive";
    return null;
  }

  /** The coins a scope may hold and borrow: an isolated symbol's two, or every margin pair's for cross. */
  assetsOf(scope: MarginScope): Set<string> | null {
    if (scope !== "all") {
      const pair = this.pairs.get(scope);
      return pair ? new Set([pair.base, pair.quote]) : null;
    }
    const assets = new Set<string>();
    for (const pair of this.pairs.values()) assets.add(pair.base).add(pair.quote);
    return assets;
  }

  /** The leverage that bounds a scope's debt: cross's, or the member's on an isolated symbol. */
  leverageOf(owner: string, scope: MarginScope): number {
    if (scope === "all") return CROSS_LEVERAGE;
    // A leverage chosen before an operator lowered the pair's highest is read as that highest.
    const highest = this.pairs.get(scope)?.maxLeverage ?? DEFAULT_ISOLATED_LEVERAGE;
    return Math.min(this.leverages.get(accountKey(owner, scope)) ?? DEFAULT_ISOLATED_LEVERAGE, highest);
  }

  /** The isolated leverage a member chose on a symbol, if they did. */
  chosenLeverage(owner: string, scope: MarginScope): number | undefined {
    return this.leverages.get(accountKey(owner, scope));
  }

  loan(owner: string, scope: MarginScope, asset: string): Readonly<Loan> | undefined {
    return this.loans.get(loanKey(owner, scope, asset));
  }

  /** How many loans are open (the loop ticks only while there are some). */
  get loanCount(): number {
    return this.loans.size;
  }

  /** Every open loan (bench, views, invariants). */
  allLoans(): IterableIterator<Readonly<Loan>> {
    return this.loans.values();
  }

  loansOf(owner: string, scope: MarginScope): ReadonlySet<Readonly<Loan>> {
    return this.loansOfAccount.get(accountKey(owner, scope)) ?? new Set();
  }

  lentOf(asset: string): bigint {
    return this.lent.get(asset) ?? 0n;
  }

  isWarned(owner: string, scope: MarginScope): boolean {
    return this.warned.has(accountKey(owner, scope));
  }

  /** A coin amount in the valuation coin's minor units, rounded down (or up), or null without a price. */
  value(asset: string, amount: bigint, up = false): bigint | null {
    const target = this.scaleOf(this.valuationAsset);
    if (asset === this.valuationAsset) return amount;
    const quote = this.priceOf(asset);
    if (!quote) return null;
    const num = amount * quote.price * 10n ** BigInt(target);
    const den = 10n ** BigInt(this.scaleOf(asset) + quote.scale);
    return up ? ceilDiv(num, den) : num / den;
  }

  /** A scope's assets and debts, valued; a coin without a price counts as nothing held and blocks borrowing it. */
  levelOf(owner: string, scope: MarginScope): MarginLevel {
    let assets = 0n;
    let debts = 0n;
    const kind = marginKind(scope);
    for (const asset of this.assetsOf(scope) ?? []) {
      const posted = this.ledger.posted({ owner, kind, asset });
      if (posted > 0n) assets += this.value(asset, posted) ?? 0n;
    }
    for (const loan of this.loansOf(owner, scope)) {
      const owed = loan.principal + loan.interest;
      // No price for an owed coin: its debt cannot be valued, so the level is at its worst.
      const v = this.value(loan.asset, owed, true);
      debts += v ?? assets + 1n;
    }
    return { assets, debts, level: debts === 0n ? null : (assets * 100n) / debts };
  }

  /**
   * How much of a coin a member may still borrow in a scope: what their leverage allows on their
   * equity (assets − debts) × (leverage − 1), less what they owe, in that coin, rounded down; and
   * at most what the pool has left.
   */
  canBorrow(owner: string, scope: MarginScope, asset: string): bigint | MarginCode {
    const pool = this.pools.get(asset);
    const assets = this.assetsOf(scope);
    if (!assets) return "MARGIN_UNKNOWN_PAIR";
    if (!pool || !assets.has(asset)) return "MARGIN_UNKNOWN_ASSET";
    const price = this.value(asset, 10n ** BigInt(this.scaleOf(asset)));
    if (price === null || price === 0n) return "MARGIN_NO_PRICE";
    const { assets: held, debts } = this.levelOf(owner, scope);
    const equity = held - debts;
    const room = equity * BigInt(this.leverageOf(owner, scope) - 1) - debts;
    if (room <= 0n) return 0n;
    const byLeverage = (room * 10n ** BigInt(this.scaleOf(asset))) / price;
    const poolLeft = pool.limit - this.lentOf(asset);
    const most = byLeverage < poolLeft ? byLeverage : poolLeft;
    return most > 0n ? most : 0n;
  }

  /** The first hour's interest of a borrow of `amount` (what `preborrow` answers). */
  firstHourInterest(asset: string, amount: bigint): bigint {
    const pool = this.pools.get(asset);
    return pool ? ceilDiv(amount * pool.hourlyRate, RATE_ONE) : 0n;
  }

  borrow(owner: string, scope: MarginScope, asset: string, amount: bigint, at: number, out: Array<MarginEvent | TransferEvent>): MarginCode {
    if (amount <= 0n) return "MARGIN_BAD_AMOUNT";
    const most = this.canBorrow(owner, scope, asset);
    if (typeof most === "string") return most;
    const pool = this.pools.get(asset)!;
    if (amount < pool.minBorrow) return "MARGIN_BELOW_MINIMUM";
    if (amount > pool.limit - this.lentOf(asset)) return "MARGIN_POOL_EXHAUSTED";
    if (amount > most) return "MARGIN_OVER_LIMIT";
    const loanRef = { owner, kind: loanKind(scope), asset };
    const moved = this.ledger.moveBetween(this.nextId(), this.ledger.account(loanRef), this.ledger.account({ owner, kind: marginKind(scope), asset }), amount);
    if (typeof moved === "string") throw new Error(`a borrow refused by the ledger (${moved}): a loan account may go below zero`);
    out.push(moved);
    const loan = this.openLoan(owner, scope, asset, Math.floor(at / HOUR_MS) + 1);
    loan.principal += amount;
    this.lent.set(asset, this.lentOf(asset) + amount);
    const interest = this.charge(loan, amount * pool.hourlyRate, out);
    out.push({ type: "margin.borrowed", memberId: owner, scope, asset, amount, interest });
    return "OK";
  }

  /** Pays back `amount` of a coin owed in a scope from its margin account: interest first, then principal. */
  repay(owner: string, scope: MarginScope, asset: string, amount: bigint, out: Array<MarginEvent | TransferEvent>): MarginCode {
    if (amount <= 0n) return "MARGIN_BAD_AMOUNT";
    if (!this.assetsOf(scope)) return "MARGIN_UNKNOWN_PAIR";
    const loan = this.loans.get(loanKey(owner, scope, asset));
    if (!loan) return "MARGIN_REPAY_EXCEEDS";
    if (amount > loan.principal + loan.interest) return "MARGIN_REPAY_EXCEEDS";
    const from = this.ledger.account({ owner, kind: marginKind(scope), asset });
    if (from.posted - from.held < amount) return "MARGIN_INSUFFICIENT";
    const moved = this.ledger.moveBetween(this.nextId(), from, this.ledger.account({ owner, kind: loanKind(scope), asset }), amount);
    if (typeof moved === "string") return "MARGIN_INSUFFICIENT";
    out.push(moved);
    const interest = amount < loan.interest ? amount : loan.interest;
    const principal = amount - interest;
    loan.interest -= interest;
    loan.principal -= principal;
    this.lent.set(asset, this.lentOf(asset) - principal);
    if (loan.principal === 0n && loan.interest === 0n) this.closeLoan(loan);
    out.push({ type: "margin.repaid", memberId: owner, scope, asset, principal, interest });
    return "OK";
  }

  /** Funds between a member's funding account and a margin account; out only while the level stays at TRANSFER_OUT_LEVEL or above. */
  transfer(owner: string, scope: MarginScope, asset: string, amount: bigint, direction: "in" | "out", out: Array<MarginEvent | TransferEvent>): MarginCode {
    if (amount <= 0n) return "MARGIN_BAD_AMOUNT";
    const assets = this.assetsOf(scope);
    if (!assets) return "MARGIN_UNKNOWN_PAIR";
    if (!assets.has(asset)) return "MARGIN_UNKNOWN_ASSET";
    const margin = this.ledger.account({ owner, kind: marginKind(scope), asset });
    const funding = this.ledger.account({ owner, kind: "funding", asset });
    const [from, to] = direction === "in" ? [funding, margin] : [margin, funding];
    if (from.posted - from.held < amount) return "MARGIN_INSUFFICIENT";
    if (direction === "out" && this.loansOf(owner, scope).size > 0) {
      const after = this.levelOf(owner, scope);
      const left = after.assets - (this.value(asset, amount, true) ?? after.assets);
      if (left * 100n < after.debts * TRANSFER_OUT_LEVEL) return "MARGIN_LEVEL_UNSAFE";
    }
    // Its id is the core's (from the command's sequence number): a member's key names the request, not the transfer.
    const moved = this.ledger.moveBetween(this.nextId(), from, to, amount);
    if (typeof moved === "string") return "MARGIN_INSUFFICIENT";
    out.push(moved, { type: "margin.transferred", memberId: owner, scope, asset, amount, direction });
    return "OK";
  }

  /** A member's isolated leverage on a symbol: 2 to its maximum, and not below what their debt there already uses. */
  setLeverage(owner: string, symbol: string, leverage: number, out: Array<MarginEvent | TransferEvent>): MarginCode {
    const pair = this.pairs.get(symbol);
    if (!pair) return "MARGIN_UNKNOWN_PAIR";
    if (!Number.isInteger(leverage) || leverage < 2 || leverage > pair.maxLeverage) return "MARGIN_BAD_LEVERAGE";
    const { assets, debts } = this.levelOf(owner, symbol);
    if (debts > (assets - debts) * BigInt(leverage - 1)) return "MARGIN_BAD_LEVERAGE";
    this.leverages.set(accountKey(owner, symbol), leverage);
    out.push({ type: "margin.leverage", memberId: owner, symbol, leverage });
    return "OK";
  }

  /**
   * The engine's clock reached `at`: every loan whose next hour has begun is charged for each hour
   * begun since (an engine down for three hours charges three at its first tick, at today's rate).
   */
  accrue(at: number, out: Array<MarginEvent | TransferEvent>): void {
    const hour = Math.floor(at / HOUR_MS);
    if (hour < this.dueHour) return;
    let charged = 0;
    let due = Number.POSITIVE_INFINITY;
    for (const loan of this.loans.values()) {
      if (loan.nextHour <= hour) {
        const hours = BigInt(hour - loan.nextHour + 1);
        const rate = this.pools.get(loan.asset)?.hourlyRate ?? 0n;
        loan.nextHour = hour + 1;
        if (loan.principal > 0n && rate > 0n) {
          this.charge(loan, loan.principal * rate * hours, out);
          charged++;
        }
      }
      if (loan.nextHour < due) due = loan.nextHour;
    }
    this.dueHour = due;
    out.push({ type: "margin.accrued", hour, loans: charged });
  }

  /**
   * Compares every indebted account's level with the warning line: one `margin.level` event when
   * it falls below (warned) and one when it rises back above. Answers the accounts at or below the
   * liquidation line, for the caller to liquidate.
   */
  watchLevels(out: Array<MarginEvent | TransferEvent>): Array<{ owner: string; scope: MarginScope }> {
    const liquidate: Array<{ owner: string; scope: MarginScope }> = [];
    for (const [key, loans] of this.loansOfAccount) {
      if (loans.size === 0) continue;
      const { owner, scope } = loans.values().next().value!;
      const { assets, debts, level } = this.levelOf(owner, scope);
      const below = assets * 100n < debts * WARNING_LEVEL;
      if (below && !this.warned.has(key)) {
        this.warned.add(key);
        out.push({ type: "margin.level", memberId: owner, scope, warned: true, level });
      } else if (!below && this.warned.delete(key)) out.push({ type: "margin.level", memberId: owner, scope, warned: false, level });
      if (assets * 100n <= debts * LIQUIDATION_LEVEL) liquidate.push({ owner, scope });
    }
    return liquidate;
  }

  /**
   * After a liquidation's sales: each loan repaid from the account's balance of its coin as far as
   * it goes (interest first); with `writeOff`, what is left owed is taken by the margin insurance,
   * then by the pool (whose account may go below zero), and the loan closes. True: no loan is left.
   */
  settleLiquidation(owner: string, scope: MarginScope, writeOff: boolean, out: Array<MarginEvent | TransferEvent>): boolean {
    for (const loan of [...this.loansOf(owner, scope)]) {
      const owed = loan.principal + loan.interest;
      const account = this.ledger.account({ owner, kind: marginKind(scope), asset: loan.asset });
      const free = account.posted - account.held;
      const pay = free < owed ? free : owed;
      if (pay > 0n) this.repay(owner, scope, loan.asset, pay, out);
    }
    if (!writeOff) return this.loansOf(owner, scope).size === 0;
    for (const loan of [...(this.loansOfAccount.get(accountKey(owner, scope)) ?? [])]) {
      const loanAccount = this.ledger.account({ owner, kind: loanKind(scope), asset: loan.asset });
      const insurance = this.ledger.account(marginInsuranceAccount(loan.asset));
      const owed = loan.principal + loan.interest;
      const free = insurance.posted - insurance.held;
      const insured = free <= 0n ? 0n : free < owed ? free : owed;
      for (const [from, amount] of [
        [insurance, insured],
        [this.ledger.account(lendingAccount(loan.asset)), owed - insured],
      ] as const) {
        if (amount === 0n) continue;
        const moved = this.ledger.moveBetween(this.nextId(), from, loanAccount, amount);
        if (typeof moved === "string") throw new Error(`a write-off refused by the ledger (${moved}): the pool may go below zero`);
        out.push(moved);
      }
      out.push({ type: "margin.written_off", memberId: owner, scope, asset: loan.asset, insurance: insured, pool: owed - insured });
      this.lent.set(loan.asset, this.lentOf(loan.asset) - loan.principal);
      loan.principal = 0n;
      loan.interest = 0n;
      this.closeLoan(loan);
    }
    return true;
  }

  /** Interest of `scaled` (at MARGIN_RATE_SCALE) on a loan, rounded up: moved from its loan account to the pool. */
  private charge(loan: Loan, scaled: bigint, out: Array<MarginEvent | TransferEvent>): bigint {
    const interest = ceilDiv(scaled, RATE_ONE);
    if (interest === 0n) return 0n;
    const moved = this.ledger.moveBetween(
      this.nextId(),
      this.ledger.account({ owner: loan.owner, kind: loanKind(loan.scope), asset: loan.asset }),
      this.ledger.account(lendingAccount(loan.asset)),
      interest,
    );
    if (typeof moved === "string") throw new Error(`interest refused by the ledger (${moved}): a loan account may go below zero`);
    out.push(moved);
    loan.interest += interest;
    return interest;
  }

  private openLoan(owner: string, scope: MarginScope, asset: string, nextHour: number): Loan {
    const key = loanKey(owner, scope, asset);
    let loan = this.loans.get(key);
    if (!loan) {
      loan = { owner, scope, asset, principal: 0n, interest: 0n, nextHour };
      this.addLoan(key, loan);
    }
    return loan;
  }

  private addLoan(key: string, loan: Loan): void {
    this.loans.set(key, loan);
    const account = accountKey(loan.owner, loan.scope);
    let set = this.loansOfAccount.get(account);
    if (!set) this.loansOfAccount.set(account, (set = new Set()));
    set.add(loan);
    if (loan.nextHour < this.dueHour) this.dueHour = loan.nextHour;
  }

  private closeLoan(loan: Loan): void {
    this.loans.delete(loanKey(loan.owner, loan.scope, loan.asset));
    const account = accountKey(loan.owner, loan.scope);
    const set = this.loansOfAccount.get(account);
    set?.delete(loan);
    if (set?.size === 0) {
      this.loansOfAccount.delete(account);
      this.warned.delete(account);
    }
  }

  /** Each loan's debt equals minus its loan account, no loan account holds anything without a loan, and `lent` is the principals' sum. */
  checkInvariants(): string[] {
    const problems: string[] = [];
    const lent = new Map<string, bigint>();
    const loanAccounts = new Set<string>();
    for (const loan of this.loans.values()) {
      const id = accountId({ owner: loan.owner, kind: loanKind(loan.scope), asset: loan.asset });
      loanAccounts.add(id);
      const posted = this.ledger.balanceOf(id).posted;
      if (posted !== -(loan.principal + loan.interest)) problems.push(`${id} ${posted}, its loan owes ${loan.principal}+${loan.interest}`);
      if (loan.principal < 0n || loan.interest < 0n) problems.push(`${id}: negative debt`);
      lent.set(loan.asset, (lent.get(loan.asset) ?? 0n) + loan.principal);
    }
    for (const [id, posted] of this.ledger.accounts())
      if (posted !== 0n && isLoanKind(accountOf(id).kind) && !loanAccounts.has(id)) problems.push(`${id} ${posted} without a loan`);
    for (const asset of new Set([...lent.keys(), ...this.lent.keys()]))
      if ((lent.get(asset) ?? 0n) !== this.lentOf(asset)) problems.push(`lent ${asset} ${this.lentOf(asset)}, the loans say ${lent.get(asset) ?? 0n}`);
    return problems;
  }

  stateHash(): string {
    const hash = createHash("sha256");
    for (const asset of [...this.pools.keys()].sort()) {
      const p = this.pools.get(asset)!;
      hash.update(`pool ${asset} ${p.hourlyRate}/${p.limit}/${p.minBorrow};`);
    }
    for (const symbol of [...this.pairs.keys()].sort()) hash.update(`pair ${symbol} ${this.pairs.get(symbol)!.maxLeverage};`);
    for (const key of [...this.loans.keys()].sort()) {
      const l = this.loans.get(key)!;
      hash.update(`loan ${key} ${l.principal}/${l.interest}/${l.nextHour};`);
    }
    for (const key of [...this.leverages.keys()].sort()) hash.update(`leverage ${key} ${this.leverages.get(key)};`);
    for (const key of [...this.warned].sort()) hash.update(`warned ${key};`);
    return hash.digest("hex");
  }

  snapshot(): MarginState {
    return {
      pools: [...this.pools.values()].map((p) => ({
        asset: p.asset,
        hourlyRate: p.hourlyRate.toString(),
        limit: p.limit.toString(),
        minBorrow: p.minBorrow.toString(),
      })),
      pairs: [...this.pairs.values()].map((p) => ({ ...p })),
      loans: [...this.loans.values()].map((l) => `${l.owner}\t${l.scope}\t${l.asset}\t${l.principal}\t${l.interest}\t${l.nextHour}`).join("\n"),
      leverages: [...this.leverages].map(([key, leverage]) => {
        const [owner, symbol] = key.split("|") as [string, string];
        return [owner, symbol, leverage];
      }),
      warned: [...this.warned].map((key) => key.split("|") as [string, string]),
    };
  }

  /** Puts a snapshot's (or the tables') state back; the ledger's balances are restored apart. */
  restore(state: MarginState): void {
    for (const p of state.pools)
      this.configurePool({ asset: p.asset, hourlyRate: BigInt(p.hourlyRate), limit: BigInt(p.limit), minBorrow: BigInt(p.minBorrow) });
    for (const p of state.pairs) this.configurePair({ ...p });
    for (const line of state.loans === "" ? [] : state.loans.split("\n")) {
      const [owner, scope, asset, principal, interest, nextHour] = line.split("\t") as [string, string, string, string, string, string];
      this.restoreLoan({ owner, scope, asset, principal: BigInt(principal), interest: BigInt(interest), nextHour: Number(nextHour) });
    }
    for (const [owner, symbol, leverage] of state.leverages) this.leverages.set(accountKey(owner, symbol), leverage);
    for (const [owner, scope] of state.warned) this.warned.add(accountKey(owner, scope));
  }

  restoreLoan(loan: Loan): void {
    this.addLoan(loanKey(loan.owner, loan.scope, loan.asset), { ...loan });
    this.lent.set(loan.asset, this.lentOf(loan.asset) + loan.principal);
  }
}
