import { createHash } from "node:crypto";

/**
 * The ledger (TigerBeetle's words): accounts per owner, kind and asset; immutable transfers that
 * debit one account and credit another of the same asset; two-phase holds (pending → posted or
 * voided) that reserve funds for open orders and withdrawals in review. Amounts are `bigint`
 * minor units. Pure and synchronous: every change returns the transfers it made, for the I/O
 * layer to persist. The only accounts that may go below zero are the asset's external account,
 * whose balance is minus the deposits net of withdrawals, and contracts' clearing account (its
 * profit and loss owed by open positions) — every asset sums to zero.
 */

export type AccountKind =
  | "funding"
  | "spot"
  | "contract"
  | "merchant"
  | "external"
  | "fees"
  | "position"
  | "clearing"
  | "insurance"
  /** A member's cross margin account (decision 050). */
  | "margin"
  /** A member's isolated margin account of one symbol (`margin:BTC/USDT`; decision 050). */
  | `margin:${string}`
  /** What a member owes on cross margin, one account per coin: minus principal and interest (decision 050). */
  | "loan"
  /** What a member owes on one isolated margin account (`loan:BTC/USDT`). */
  | `loan:${string}`
  /** A margin lending pool's earnings: interest in, shortfalls its insurance could not cover out (decision 050). */
  | "lending"
  /** What covers a margin liquidation's shortfall first. */
  | "margin_insurance"
  /** A crypto loan's collateral (`pledge:<loan id>`), the member's while the loan is open (decision 051). */
  | `pledge:${string}`
  /** What a member owes on one crypto loan (`pledge_debt:<loan id>`): minus principal and interest. */
  | `pledge_debt:${string}`
  /** The crypto loans' pool: interest in, liquidation shortfalls out (may go below zero). */
  | "pledge_lending"
  /** A member's stake (`stake:<stake id>`): its principal and the interest credited to it (decision 052). */
  | `stake:${string}`
  /** What staking's interest costs the exchange, per coin: below zero by what it has paid (decision 052). */
  | "staking_rewards"
  /** A member's subscription to a new coin or an ETF (`sub:<subscription id>`): its payment held, then its return (decision 053). */
  | `sub:${string}`
  /** What subscriptions paid for the coins they won, per paying coin (decision 053). */
  | "subscription_proceeds"
  /** Where a subscription's coin is issued from: below zero by what has been issued (decision 053). */
  | "subscription_issue"
  /** A pulse pick order's bet (`pulse:<order id>`), the member's while it runs (issue 33). */
  | `pulse:${string}`
  /** The exchange's side of every pulse pick order: losses in, wins' profits out (may go below zero). */
  | "pulse_pool";

export interface AccountRef {
  /** A member id, or `@system` for the external and fee accounts. */
  owner: string;
  kind: AccountKind;
  asset: string;
}

export const SYSTEM_OWNER = "@system";
export const externalAccount = (asset: string): AccountRef => ({ owner: SYSTEM_OWNER, kind: "external", asset });
/**
 * The counterparty of perpetual contracts' realised profit and loss (decision 045): its balance is
 * minus the open positions' profit and loss at their costs, a sum owed by losers and covered by
 * their margins, so it may be below zero, like the external account.
 */
export const clearingAccount = (asset: string): AccountRef => ({ owner: SYSTEM_OWNER, kind: "clearing", asset });
/** What covers a liquidated position's loss beyond its margin, and takes funding's rounding (decision 045). */
export const insuranceAccount = (asset: string): AccountRef => ({ owner: SYSTEM_OWNER, kind: "insurance", asset });

/** The kind an account id names (`owner/kind/asset`). */
const kindOfId = (id: string): AccountKind => id.slice(id.indexOf("/") + 1, id.lastIndexOf("/")) as AccountKind;
/**
 * The accounts whose balance may fall below zero: the world outside, contracts' clearing, what
 * members owe on margin and on crypto loans (a loan or debt account is minus the debt) and the
 * lending pools (minus what shortfalls cost them beyond their interest).
 */
const mayGoNegative = (kind: AccountKind) =>
  kind === "external" ||
  kind === "clearing" ||
  kind === "lending" ||
  kind === "loan" ||
  kind.startsWith("loan:") ||
  kind === "pledge_lending" ||
  kind.startsWith("pledge_debt:") ||
  kind === "staking_rewards" ||
  kind === "subscription_issue" ||
  kind === "pulse_pool";
export const feeAccount = (asset: string): AccountRef => ({ owner: SYSTEM_OWNER, kind: "fees", asset });

export type LedgerCode =
  | "OK"
  | "LEDGER_AMOUNT_NOT_POSITIVE"
  | "LEDGER_ASSET_MISMATCH"
  | "LEDGER_SAME_ACCOUNT"
  | "LEDGER_INSUFFICIENT_AVAILABLE"
  | "LEDGER_DUPLICATE_ID"
  | "LEDGER_UNKNOWN_HOLD"
  | "LEDGER_HOLD_EXCEEDED";

/** One immutable ledger entry; `pending` entries reserve, `post` and `void` resolve them. */
export interface TransferEvent {
  /** Its type in the core's event stream (core/exchange/events.ts). */
  type: "transfer";
  id: string;
  phase: "posted" | "pending" | "post" | "void";
  debit: string;
  credit: string | null;
  asset: string;
  amount: bigint;
  /** For `post` and `void`: the pending transfer they resolve. */
  pendingId?: string;
}

export interface LedgerResult {
  code: LedgerCode;
  transfers: TransferEvent[];
}

/**
 * One account as the ledger keeps it. `account()` hands it out (read-only) so that a caller who
 * names the same account on every order and trade (a market, its members' accounts) looks it up
 * once and passes it back, instead of having its id hashed again on every hold and post.
 */
export interface LedgerAccount {
  readonly id: string;
  readonly asset: string;
  readonly posted: bigint;
  readonly held: bigint;
}

/** The ledger's own view of an account: the same record, writable. */
interface Balance extends LedgerAccount {
  posted: bigint;
  held: bigint;
}

/** An open hold, handed out by `openHold` / `findHold` for the same reason as `LedgerAccount`. */
export interface LedgerHold {
  readonly id: string;
  readonly remaining: bigint;
  /** The account whose funds it reserves. */
  readonly account: LedgerAccount;
}

/** The id of the hold an owner keeps (an order's: `hold:<order id>`). */
export const attachedHoldId = (owner: string) => `hold:${owner}`;

/**
 * A hold as the ledger keeps it. An attached hold (an order's, see `openAttachedHold`) stores its
 * owner's id and makes its own (`hold:<owner>`) the first time it is asked for it, and its asset
 * is its account's: a restore makes a million of them, and each string kept is one more object
 * for the collector to copy (decision 017, step 18); a hold opened by an order is handed the id
 * its pending transfer was given.
 */
class Hold implements LedgerHold {
  constructor(
    /** The hold's id; for an attached hold, its owner's. */
    private readonly name: string,
    /** The account whose funds it reserves (its record itself: a post or void needs no lookup). */
    readonly account: Balance,
    public remaining: bigint,
    /** Kept by its owner (an order), not in the ledger's map of holds: see `openAttachedHold`. */
    readonly attached: boolean,
    /** An attached hold's id, once made. */
    private madeId: string | undefined,
  ) {}

  get id(): string {
    if (!this.attached) return this.name;
    return (this.madeId ??= attachedHoldId(this.name));
  }

  get asset(): string {
    return this.account.asset;
  }
}

/**
 * Whoever keeps attached holds (a spot market, with its orders) answers for them: by id, and all
 * of them, so that the ledger's checks, its state hash and the projection see every hold.
 */
export interface AttachedHolds {
  attachedHold(id: string): LedgerHold | undefined;
  attachedHolds(): Iterable<LedgerHold>;
}

/** What a change that makes one transfer answers: the transfer, or why it was refused. */
export type TransferOrCode = TransferEvent | Exclude<LedgerCode, "OK">;

export function accountId(ref: AccountRef): string {
  return `${ref.owner}/${ref.kind}/${ref.asset}`;
}

/** The account an id names (the inverse of `accountId`). */
export function accountOf(id: string): AccountRef {
  const first = id.indexOf("/");
  const last = id.lastIndexOf("/");
  if (first < 1 || last === first || last === id.length - 1) throw new RangeError(`not an account id: ${id}`);
  return { owner: id.slice(0, first), kind: id.slice(first + 1, last) as AccountKind, asset: id.slice(last + 1) };
}

const refused = (code: LedgerCode): LedgerResult => ({ code, transfers: [] });
const resultOf = (r: TransferOrCode): LedgerResult => (typeof r === "string" ? refused(r) : { code: "OK", transfers: [r] });

export class Ledger {
  private readonly balances = new Map<string, Balance>();
  /** Holds the ledger keeps by id (withdrawals in review, …); orders' holds are attached to the orders. */
  private readonly holds = new Map<string, Hold>();
  private readonly keepers: AttachedHolds[] = [];
  // No set of every transfer id ever seen (it grew for the life of the process): settlement ids
  // come from the command's sequence number and cannot repeat; ids from outside (deposits,
  // member transfers) are checked against the stored ones by the I/O layer before they get here.

  /** Posted balance minus what holds reserve. */
  available(ref: AccountRef): bigint {
    const b = this.balances.get(accountId(ref));
    return b ? b.posted - b.held : 0n;
  }

  posted(ref: AccountRef): bigint {
    return this.balances.get(accountId(ref))?.posted ?? 0n;
  }

  held(ref: AccountRef): bigint {
    return this.balances.get(accountId(ref))?.held ?? 0n;
  }

  /** Funds entering the system (a deposit): from the asset's external account. */
  deposit(id: string, to: AccountRef, amount: bigint): LedgerResult {
    return this.transfer(id, externalAccount(to.asset), to, amount);
  }

  /** Funds leaving the system (a completed withdrawal): to the asset's external account. */
  withdraw(id: string, from: AccountRef, amount: bigint): LedgerResult {
    return this.transfer(id, from, externalAccount(from.asset), amount);
  }

  /** Moves available funds between two accounts of one asset. */
  transfer(id: string, from: AccountRef, to: AccountRef, amount: bigint): LedgerResult {
    const check = this.checkTransfer(id, from, to, amount);
    if (check !== "OK") return refused(check);
    const debit = accountId(from);
    const credit = accountId(to);
    this.balance(debit).posted -= amount;
    this.balance(credit).posted += amount;
    return { code: "OK", transfers: [{ type: "transfer", id, phase: "posted", debit, credit, asset: from.asset, amount }] };
  }

  /** Reserves `amount` of an account's available funds under the hold `id` (a pending transfer). */
  hold(id: string, account: AccountRef, amount: bigint): LedgerResult {
    return resultOf(this.openHold(id, this.account(account), amount));
  }

  /** Pays `amount` out of a hold to `to` (a partial or full fill); the rest stays held. */
  postHold(id: string, holdId: string, amount: bigint, to: AccountRef): LedgerResult {
    const hold = this.holds.get(holdId);
    if (!hold) return refused("LEDGER_UNKNOWN_HOLD");
    return resultOf(this.payFromHold(id, hold, amount, this.account(to)));
  }

  /** Releases what is left of a hold (an order cancelled or filled for less). */
  voidHold(id: string, holdId: string): LedgerResult {
    const hold = this.holds.get(holdId);
    if (!hold) return refused("LEDGER_UNKNOWN_HOLD");
    return { code: "OK", transfers: [this.releaseHold(id, hold)] };
  }

  // The same three changes for a caller that keeps the account and hold records it is handed
  // (the spot market, several times per order): no lookup by id, no result wrapper to allocate.

  /** The record of an account, made (empty) if it has none yet: hand it back to the methods below. */
  account(ref: AccountRef): LedgerAccount {
    return this.balance(accountId(ref));
  }

  /**
   * `transfer` between two account records (a caller that keeps them, as the contract markets
   * do): the posted transfer, or why not. Only the external and clearing accounts may go below zero.
   */
  moveBetween(id: string, from: LedgerAccount, to: LedgerAccount, amount: bigint): TransferOrCode {
    if (amount <= 0n) return "LEDGER_AMOUNT_NOT_POSITIVE";
    if (from.asset !== to.asset) return "LEDGER_ASSET_MISMATCH";
    if (from === to) return "LEDGER_SAME_ACCOUNT";
    const debit = from as Balance;
    if (debit.posted - debit.held < amount && !mayGoNegative(kindOfId(debit.id))) return "LEDGER_INSUFFICIENT_AVAILABLE";
    debit.posted -= amount;
    (to as Balance).posted += amount;
    return { type: "transfer", id, phase: "posted", debit: debit.id, credit: to.id, asset: debit.asset, amount };
  }

  /** An open hold, by id. */
  findHold(holdId: string): LedgerHold | undefined {
    return this.holds.get(holdId);
  }

  /** `hold`, on an account record: the pending transfer, or why not. */
  openHold(id: string, account: LedgerAccount, amount: bigint): TransferOrCode {
    if (amount <= 0n) return "LEDGER_AMOUNT_NOT_POSITIVE";
    if (this.holds.has(id)) return "LEDGER_DUPLICATE_ID";
    const balance = account as Balance;
    // One bigint sum both checks and becomes the new held amount (each bigint operation allocates).
    const held = balance.held + amount;
    if (held > balance.posted) return "LEDGER_INSUFFICIENT_AVAILABLE";
    balance.held = held;
    this.holds.set(id, new Hold(id, balance, amount, false, undefined));
    return { type: "transfer", id, phase: "pending", debit: balance.id, credit: null, asset: balance.asset, amount };
  }

  /**
   * `openHold` for a hold its caller keeps (an order's, on the order): the ledger reserves the
   * funds and hands the hold back, but keeps no entry for it in its map of holds — a resting
   * order cost an insert into and a delete from a map of every open hold, and a restore a
   * million of them. The caller registered as its keeper (`attach`) answers for it by id. Its
   * pending transfer goes to `out`. The hold's id is `attachedHoldId(owner)`; owners are the
   * caller's to keep unique (an order id is).
   */
  openAttachedHold(
    owner: string,
    account: LedgerAccount,
    amount: bigint,
    out: { push(transfer: TransferEvent): unknown },
  ): LedgerHold | "LEDGER_AMOUNT_NOT_POSITIVE" | "LEDGER_INSUFFICIENT_AVAILABLE" {
    if (amount <= 0n) return "LEDGER_AMOUNT_NOT_POSITIVE";
    const balance = account as Balance;
    const held = balance.held + amount;
    if (held > balance.posted) return "LEDGER_INSUFFICIENT_AVAILABLE";
    balance.held = held;
    const id = attachedHoldId(owner);
    out.push({ type: "transfer", id, phase: "pending", debit: balance.id, credit: null, asset: balance.asset, amount });
    return new Hold(owner, balance, amount, true, id);
  }

  /** Registers a keeper of attached holds (each spot market, as it opens). */
  attach(keeper: AttachedHolds): void {
    this.keepers.push(keeper);
  }

  /** Every open hold: the ledger's own, then each keeper's. */
  private *everyHold(): Generator<Hold> {
    yield* this.holds.values();
    for (const keeper of this.keepers) for (const hold of keeper.attachedHolds()) yield hold as Hold;
  }

  /** `postHold`, from a hold record to an account record: the post transfer, or why not. */
  payFromHold(id: string, openHold: LedgerHold, amount: bigint, to: LedgerAccount): TransferOrCode {
    const hold = openHold as Hold;
    if (hold.remaining === 0n) return "LEDGER_UNKNOWN_HOLD"; // spent or voided since it was handed out
    if (amount <= 0n) return "LEDGER_AMOUNT_NOT_POSITIVE";
    if (to.asset !== hold.asset) return "LEDGER_ASSET_MISMATCH";
    if (amount > hold.remaining) return "LEDGER_HOLD_EXCEEDED";
    const from = hold.account;
    if (to === from) return "LEDGER_SAME_ACCOUNT";
    from.held -= amount;
    from.posted -= amount;
    (to as Balance).posted += amount;
    hold.remaining -= amount;
    if (hold.remaining === 0n && !hold.attached) this.holds.delete(hold.id);
    return { type: "transfer", id, phase: "post", debit: from.id, credit: to.id, asset: hold.asset, amount, pendingId: hold.id };
  }

  /**
   * What a trade takes from each side's hold: `total` leaves it, `fee` of that to `feeTo` and the
   * rest to `to`. The same transfers as `payFromHold` of the rest and then of the fee (a part of
   * zero makes no transfer and takes no id from `nextId`), but the hold and its account change
   * once, by the total: every bigint operation allocates, and each trade pays four parts.
   */
  payFromHoldWithFee(
    openHold: LedgerHold,
    total: bigint,
    to: LedgerAccount,
    fee: bigint,
    feeTo: LedgerAccount,
    nextId: () => string,
    out: { push(transfer: TransferEvent): unknown },
  ): LedgerCode {
    const hold = openHold as Hold;
    if (hold.remaining === 0n) return "LEDGER_UNKNOWN_HOLD";
    const rest = total - fee;
    if (fee < 0n || rest < 0n || total === 0n) return "LEDGER_AMOUNT_NOT_POSITIVE";
    if (to.asset !== hold.asset || feeTo.asset !== hold.asset) return "LEDGER_ASSET_MISMATCH";
    if (total > hold.remaining) return "LEDGER_HOLD_EXCEEDED";
    const from = hold.account;
    if (to === from || feeTo === from) return "LEDGER_SAME_ACCOUNT";
    from.held -= total;
    from.posted -= total;
    hold.remaining -= total;
    const holdId = hold.id;
    if (hold.remaining === 0n && !hold.attached) this.holds.delete(holdId);
    const asset = from.asset;
    if (rest > 0n) {
      (to as Balance).posted += rest;
      out.push({ type: "transfer", id: nextId(), phase: "post", debit: from.id, credit: to.id, asset, amount: rest, pendingId: holdId });
    }
    if (fee > 0n) {
      (feeTo as Balance).posted += fee;
      out.push({ type: "transfer", id: nextId(), phase: "post", debit: from.id, credit: feeTo.id, asset, amount: fee, pendingId: holdId });
    }
    return "OK";
  }

  /** `voidHold`, on a hold record: the void transfer of what is left of it. */
  releaseHold(id: string, openHold: LedgerHold): TransferEvent {
    const hold = openHold as Hold;
    const amount = hold.remaining;
    // An open hold always has something left: none means a record kept after its hold ended.
    if (amount === 0n) throw new Error(`hold ${hold.id} is no longer open`);
    hold.account.held -= amount;
    hold.remaining = 0n;
    if (!hold.attached) this.holds.delete(hold.id);
    return { type: "transfer", id, phase: "void", debit: hold.account.id, credit: null, asset: hold.asset, amount, pendingId: hold.id };
  }

  /** Balance of an account by its id (for persistence). */
  balanceOf(key: string): { posted: bigint; held: bigint } {
    const b = this.balances.get(key);
    return { posted: b?.posted ?? 0n, held: b?.held ?? 0n };
  }

  /** Restores a persisted balance at start (before any command). */
  restoreBalance(key: string, posted: bigint, held: bigint): void {
    // In place: a record already handed out (`account`) must stay the one the ledger keeps.
    const b = this.balance(key);
    b.posted = posted;
    b.held = held;
  }

  /** Restores a persisted open hold at start. */
  restoreHold(id: string, key: string, asset: string, remaining: bigint): void {
    const balance = this.balance(key);
    // A hold's asset is its account's (the record keeps no other): a row that says otherwise is damaged.
    if (asset !== balance.asset) throw new Error(`hold ${id}: asset ${asset} on an account of ${balance.asset}`);
    this.holds.set(id, new Hold(id, balance, remaining, false, undefined));
  }

  /** A persisted hold its owner keeps (`openAttachedHold`), restored on an account record: no map entry, no id looked up. */
  restoreAttachedHold(owner: string, account: LedgerAccount, remaining: bigint): LedgerHold {
    return new Hold(owner, account as Balance, remaining, true, undefined);
  }

  /** What is left of an open hold, the ledger's own or a keeper's (0: none open by that id). */
  holdRemaining(holdId: string): bigint {
    const own = this.holds.get(holdId);
    if (own) return own.remaining;
    for (const keeper of this.keepers) {
      const hold = keeper.attachedHold(holdId);
      if (hold) return hold.remaining;
    }
    return 0n;
  }

  /**
   * The ledger's invariants: per asset the posted balances sum to zero (external included);
   * no held amount is negative; no account but an external one has negative available funds;
   * every account's held amount equals the sum of its holds. Returns the broken ones.
   */
  checkInvariants(): string[] {
    const problems: string[] = [];
    const sums = new Map<string, bigint>();
    const heldByAccount = new Map<string, bigint>();
    for (const hold of this.everyHold()) heldByAccount.set(hold.account.id, (heldByAccount.get(hold.account.id) ?? 0n) + hold.remaining);
    for (const [key, balance] of this.balances) {
      const asset = key.slice(key.lastIndexOf("/") + 1);
      sums.set(asset, (sums.get(asset) ?? 0n) + balance.posted);
      if (balance.held < 0n) problems.push(`${key}: held ${balance.held} < 0`);
      if (!mayGoNegative(kindOfId(key)) && balance.posted - balance.held < 0n) {
        problems.push(`${key}: available ${balance.posted - balance.held} < 0`);
      }
      if ((heldByAccount.get(key) ?? 0n) !== balance.held) problems.push(`${key}: held ${balance.held} but holds sum to ${heldByAccount.get(key) ?? 0n}`);
    }
    for (const [asset, sum] of sums) if (sum !== 0n) problems.push(`${asset}: balances sum to ${sum}, not 0`);
    return problems;
  }

  /** A digest of every balance and hold, to compare states (replays, restarts). */
  /** Every account with a balance: key, posted, held (snapshots; `restoreBalance` takes them back). */
  *accounts(): Generator<[string, bigint, bigint]> {
    for (const [key, b] of this.balances) if (b.posted !== 0n || b.held !== 0n) yield [key, b.posted, b.held];
  }

  /** The ledger's own open holds (not the attached ones): id, account key, asset, remaining (snapshots; `restoreHold` takes them back). */
  *openHolds(): Generator<[string, string, string, bigint]> {
    for (const [id, h] of this.holds) yield [id, h.account.id, h.asset, h.remaining];
  }

  stateHash(): string {
    const hash = createHash("sha256");
    for (const key of [...this.balances.keys()].sort()) {
      const b = this.balances.get(key)!;
      if (b.posted !== 0n || b.held !== 0n) hash.update(`${key}=${b.posted}/${b.held};`);
    }
    // Every open hold, attached ones included, by id: the same digest whoever keeps them.
    // (Each id made once: an attached hold makes its id when asked.)
    const holds: Array<[id: string, remaining: bigint]> = [];
    for (const h of this.everyHold()) if (h.remaining > 0n) holds.push([h.id, h.remaining]);
    holds.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    for (const [id, remaining] of holds) hash.update(`hold ${id}=${remaining};`);
    return hash.digest("hex");
  }

  private checkTransfer(id: string, from: AccountRef, to: AccountRef, amount: bigint): LedgerCode {
    if (amount <= 0n) return "LEDGER_AMOUNT_NOT_POSITIVE";
    if (from.asset !== to.asset) return "LEDGER_ASSET_MISMATCH";
    if (accountId(from) === accountId(to)) return "LEDGER_SAME_ACCOUNT";
    if (this.holds.has(id)) return "LEDGER_DUPLICATE_ID";
    if (!mayGoNegative(from.kind) && this.available(from) < amount) return "LEDGER_INSUFFICIENT_AVAILABLE";
    return "OK";
  }

  private balance(key: string): Balance {
    let b = this.balances.get(key);
    if (!b) {
      b = { id: key, asset: key.slice(key.lastIndexOf("/") + 1), posted: 0n, held: 0n };
      this.balances.set(key, b);
    }
    return b;
  }
}
