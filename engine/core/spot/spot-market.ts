import { createHash } from "node:crypto";
import type { CoreEvent } from "../exchange/events";
import {
  attachedHoldId,
  feeAccount,
  type AccountKind,
  type AttachedHolds,
  type Ledger,
  type LedgerAccount,
  type LedgerHold,
  type TransferEvent,
} from "../ledger/ledger";
import { OrderBook, type BookEvent, type Side, type TimeInForce } from "../matching/order-book";
import { listingProblem, symbolConfigProblem, type TradingRules } from "./symbol-rules";
import { StopBook, type FiredStop } from "./stop-orders";

/**
 * One spot market: risk (hold before), matching (the book) and settlement (post after) in one
 * synchronous command, as exchange-core's risk engine does. Funds an order needs are held in the
 * ledger before it reaches the book; each trade posts from the holds to the counterparties and
 * the fee account; whatever an order no longer needs is released when it ends.
 *
 * Units: a price is an integer at `priceScale` decimals (quote per one base), a quantity at
 * `amountScale`; asset amounts at the asset's own scale. `priceScale + amountScale` must not
 * exceed the quote asset's scale, so every trade's value is exact. Fees are taken in the asset
 * received (the buyer pays in base, the seller in quote), rounded down.
 *
 * Stop orders wait off the book, their funds held, in a trigger book (stop-orders.ts); a placement
 * that trades fires the stops its last price reached, in the same command (docs/decisions/009).
 */
/**
 * Whole units a price, quantity or amount of money may reach (exclusive): 10^15. The database
 * keeps 20 whole digits (NUMERIC(38, 18)); an order beyond what any balance can pay must be
 * refused here, not by a failed commit, which would stop the engine.
 */
export const MAX_WHOLE_DIGITS = 15;

export interface SpotSymbolConfig {
  symbol: string;
  base: string;
  quote: string;
  priceScale: number;
  amountScale: number;
  baseAssetScale: number;
  quoteAssetScale: number;
  /** Prices must be multiples of this (in price units). */
  tickSize: bigint;
  /** Quantities must be multiples of this (in quantity units). */
  lotSize: bigint;
  minQuantity: bigint;
  makerFeeBps: bigint;
  takerFeeBps: bigint;
}

export type SpotCode =
  | "OK"
  | "RISK_INSUFFICIENT_AVAILABLE"
  | "ORDER_BAD_TICK"
  | "ORDER_BAD_LOT"
  /** A market buy's money has more decimals than the market's value unit. */
  | "ORDER_BAD_MONEY"
  /** An operator halted the market: no new orders (cancels still work). */
  | "MARKET_HALTED"
  | "ORDER_TOO_SMALL"
  | "ORDER_OUT_OF_RANGE"
  | "ORDER_BAD_COMMAND"
  /** A margin order on a market its margin account does not trade (decision 050). */
  | "ORDER_NOT_ON_MARGIN"
  | "ORDER_UNKNOWN"
  | "ORDER_NOT_OWNER"
  | "MATCHING_POST_ONLY_WOULD_TRADE"
  | "MATCHING_FOK_NOT_FILLED"
  | "MATCHING_DUPLICATE_ID"
  | "STOP_PROFIT_WOULD_TRIGGER"
  | "STOP_LOSS_WOULD_TRIGGER"
  | "STOP_PRICES_CROSSED"
  | "STOP_MARKET_BUY_BY_AMOUNT";

export interface SpotPlaceCommand {
  orderId: string;
  memberId: string;
  side: Side;
  type: "limit" | "market";
  price?: bigint;
  /** Base quantity (num). */
  quantity?: bigint;
  /** For a market buy by money: quote amount at the quote asset's scale. */
  money?: bigint;
  tif: TimeInForce;
  /**
   * A stop (plan) order when either is set: it waits off the book, its funds held, until the
   * last trade price reaches one, then enters as the limit or market order above
   * (docs/decisions/009-stop-orders.md).
   */
  stopProfitPrice?: bigint;
  stopLossPrice?: bigint;
  /** The member's own id for the order, passed to its `order.placed` event (no rule reads it). */
  clientOrderId?: string;
  /**
   * The account it trades from and settles into, when not the member's spot account: a margin
   * account (`margin`, `margin:BTC/USDT`; decision 050). Its counterparties settle into theirs.
   */
  account?: AccountKind;
}

/**
 * What a place or cancel did: its code and, when accepted, the ordered events of the command
 * (core/exchange/events.ts). A refusal changed nothing and carries no events.
 */
export interface SpotResult {
  code: SpotCode;
  events: CoreEvent[];
}

/** A member's spot accounts of a market's base and quote, as the ledger's records. */
interface MemberAccounts {
  /** The member's id, one string for all their orders (a restore reads a copy per order). */
  memberId: string;
  base: LedgerAccount;
  quote: LedgerAccount;
}

interface WaitingOrder {
  cmd: SpotPlaceCommand;
  /** Its funds, held (attached to the order, not in the ledger's map). */
  hold: LedgerHold;
}

/** The ledger hold of an order's funds (resting or waiting): `hold:<order id>`. */
export const holdOf = attachedHoldId;
/** The hold a resting order carries as its book reference (the market gives every order its hold). */
const holdIn = (ref: unknown) => ref as LedgerHold | undefined;
const refused = (code: SpotCode): SpotResult => ({ code, events: [] });

export class SpotMarket implements AttachedHolds {
  readonly book = new OrderBook();
  /** Each member's spot accounts of the base and the quote: the ledger's records, looked up once (not per hold and post). */
  private readonly accounts = new Map<string, MemberAccounts>();
  /** Members' margin accounts of the base and the quote, by kind and member (decision 050). */
  private readonly otherAccounts = new Map<string, MemberAccounts>();
  /** The pair an account belongs to: a trade pays each side into the pair its own hold is on. */
  private readonly pairs = new Map<LedgerAccount, MemberAccounts>();
  private readonly baseFees: LedgerAccount;
  private readonly quoteFees: LedgerAccount;
  /** Stop orders waiting for their trigger: their funds are held, they are not on the book. */
  private readonly stops = new StopBook();
  private readonly waiting = new Map<string, WaitingOrder>();
  private last: bigint | undefined;
  private readonly valueFactor: bigint;
  private readonly baseFactor: bigint;
  private seq = 0;

  /**
   * `nextTransferId` names settlement transfers; it must never repeat across restarts (the I/O
   * layer passes one with a per-process prefix). The default suits a single in-memory run; like the
   * exchange core's ids its number is in base 36 (a decimal one goes through V8's number-to-string
   * cache, which keeps every new id string alive past the next young-generation collection).
   */
  constructor(
    readonly config: SpotSymbolConfig,
    private readonly ledger: Ledger,
    private readonly nextTransferId: () => string = () => `${config.symbol}:${(++this.seq).toString(36)}`,
  ) {
    const problem = symbolConfigProblem(config);
    if (problem) throw new RangeError(`${config.symbol}: ${problem}`);
    const spare = config.quoteAssetScale - config.priceScale - config.amountScale;
    this.valueFactor = 10n ** BigInt(spare);
    this.baseFactor = 10n ** BigInt(config.baseAssetScale - config.amountScale);
    this.maxPrice = 10n ** BigInt(MAX_WHOLE_DIGITS + config.priceScale);
    this.maxQuantity = 10n ** BigInt(MAX_WHOLE_DIGITS + config.amountScale);
    this.maxMoney = 10n ** BigInt(MAX_WHOLE_DIGITS + config.quoteAssetScale);
    this.baseFees = ledger.account(feeAccount(config.base));
    this.quoteFees = ledger.account(feeAccount(config.quote));
    // Its orders keep their holds: the ledger asks the market for them (checks, state hash, projection).
    ledger.attach(this);
  }

  /** An order's open hold by its id (`hold:<order id>`), resting or waiting. */
  attachedHold(id: string): LedgerHold | undefined {
    if (!id.startsWith("hold:")) return undefined;
    const orderId = id.slice(5);
    return holdIn(this.book.refOf(orderId)) ?? (this.waiting.size > 0 ? this.waiting.get(orderId)?.hold : undefined);
  }

  /** Every open hold of this market's orders: resting, then waiting. */
  *attachedHolds(): Generator<LedgerHold> {
    for (const o of this.book.resting()) {
      const hold = holdIn(o.ref);
      if (hold) yield hold;
    }
    for (const { hold } of this.waiting.values()) yield hold;
  }

  private accountsOf(memberId: string, kind?: AccountKind): MemberAccounts {
    const spot = kind === undefined || kind === "spot";
    const key = spot ? memberId : `${kind}\t${memberId}`;
    const map = spot ? this.accounts : this.otherAccounts;
    let accounts = map.get(key);
    if (!accounts) {
      const ledger = this.ledger;
      accounts = {
        memberId,
        base: ledger.account({ owner: memberId, kind: kind ?? "spot", asset: this.config.base }),
        quote: ledger.account({ owner: memberId, kind: kind ?? "spot", asset: this.config.quote }),
      };
      map.set(key, accounts);
      this.pairs.set(accounts.base, accounts).set(accounts.quote, accounts);
    }
    return accounts;
  }

  /** The accounts of the pair a hold reserves from (every hold this market opens or restores is on one). */
  private pairOf(hold: LedgerHold): MemberAccounts {
    return this.pairs.get(hold.account)!;
  }
  private halted = false;
  /** Trades settled in this market's life (a command compares it before and after to know whether it traded). */
  private tradeCount = 0;
  private readonly maxPrice: bigint;
  private readonly maxQuantity: bigint;
  private readonly maxMoney: bigint;

  /** Quote value of a quantity at a price, at the quote asset's scale (exact). */
  value(price: bigint, quantity: bigint): bigint {
    return price * quantity * this.valueFactor;
  }

  /** The last trade price (what stop orders watch); none before the first trade. */
  get lastPrice(): bigint | undefined {
    return this.last;
  }

  /** A digest of the market: its book, its waiting stop orders (with their holds) and its last price. */
  stateHash(): string {
    const hash = createHash("sha256").update(`book ${this.book.stateHash()};last ${this.last ?? "-"};halted ${this.halted};`);
    for (const id of [...this.waiting.keys()].sort()) {
      const { cmd, hold } = this.waiting.get(id)!;
      hash.update(
        `stop ${id}/${cmd.memberId}/${cmd.side}/${cmd.type}/${cmd.price ?? "-"}/${cmd.quantity ?? "-"}/${cmd.money ?? "-"}/${cmd.stopProfitPrice ?? "-"}/${cmd.stopLossPrice ?? "-"}/${hold.id}${cmd.account && cmd.account !== "spot" ? `/${cmd.account}` : ""};`,
      );
    }
    return hash.digest("hex");
  }

  /** Number of stop orders waiting for their trigger. */
  get waitingCount(): number {
    return this.waiting.size;
  }

  /** A waiting stop order, if `orderId` is one. */
  waitingOrder(orderId: string): Readonly<SpotPlaceCommand> | undefined {
    return this.waiting.get(orderId)?.cmd;
  }

  /**
   * Changes the rules a live market may change (minimum quantity, fees); they apply from the next
   * order (resting orders keep their place; fees are taken per trade). Answers why not, or null.
   */
  updateRules(rules: Partial<TradingRules>): string | null {
    const next = { ...this.config, ...rules };
    const problem = listingProblem(next);
    if (problem) return problem;
    Object.assign(this.config, { minQuantity: next.minQuantity, makerFeeBps: next.makerFeeBps, takerFeeBps: next.takerFeeBps });
    return null;
  }

  /** Halts or resumes the market: while halted every new order is refused; cancels still work. */
  setHalted(halted: boolean): void {
    this.halted = halted;
  }

  get isHalted(): boolean {
    return this.halted;
  }

  place(cmd: SpotPlaceCommand): SpotResult {
    if (this.halted) return refused("MARKET_HALTED");
    const c = this.config;
    const byMoney = isByMoney(cmd);
    const isStop = cmd.stopProfitPrice !== undefined || cmd.stopLossPrice !== undefined;

    if (this.book.has(cmd.orderId) || (this.waiting.size > 0 && this.waiting.has(cmd.orderId))) return refused("MATCHING_DUPLICATE_ID");
    if (cmd.type === "limit") {
      if (cmd.price === undefined || cmd.price <= 0n) return refused("ORDER_BAD_COMMAND");
      if (cmd.price >= this.maxPrice) return refused("ORDER_OUT_OF_RANGE");
      // Every price is a whole number of ticks when the tick is one unit (a remainder is a new bigint).
      if (c.tickSize !== 1n && cmd.price % c.tickSize !== 0n) return refused("ORDER_BAD_TICK");
    }
    if (byMoney) {
      if (cmd.money! <= 0n) return refused("ORDER_BAD_COMMAND");
      if (cmd.money! % this.valueFactor !== 0n) return refused("ORDER_BAD_MONEY");
      if (cmd.money! >= this.maxMoney) return refused("ORDER_OUT_OF_RANGE");
    } else {
      if (cmd.quantity === undefined || cmd.quantity <= 0n) return refused("ORDER_BAD_COMMAND");
      if (cmd.quantity >= this.maxQuantity) return refused("ORDER_OUT_OF_RANGE");
      if (c.lotSize !== 1n && cmd.quantity % c.lotSize !== 0n) return refused("ORDER_BAD_LOT");
      if (cmd.quantity < c.minQuantity) return refused("ORDER_TOO_SMALL");
    }
    if (isStop) {
      const refusal = this.checkStop(cmd, byMoney);
      if (refusal) return refused(refusal);
    }

    // Risk: hold what the order can cost at most.
    let holdAccount: LedgerAccount;
    let holdAmount: bigint;
    const events: CoreEvent[] = [];
    if (cmd.side === "sell") {
      holdAccount = this.accountsOf(cmd.memberId, cmd.account).base;
      holdAmount = cmd.quantity! * this.baseFactor;
    } else {
      holdAccount = this.accountsOf(cmd.memberId, cmd.account).quote;
      if (byMoney) holdAmount = cmd.money!;
      else if (cmd.type === "limit") holdAmount = this.value(cmd.price!, cmd.quantity!);
      else {
        // A market buy by quantity holds what the book asks for that quantity now.
        holdAmount = this.costToBuy(cmd.quantity!);
        if (holdAmount === 0n) {
          events.push(this.placedEvent(cmd, false), this.closedEvent(cmd.orderId, cmd.memberId, "cancelled", "no-liquidity"));
          return { code: "OK", events };
        }
      }
    }
    events.push(this.placedEvent(cmd, isStop));
    // The hold stays with the order (its book reference, or its waiting entry), not in a ledger map.
    const hold = this.ledger.openAttachedHold(cmd.orderId, holdAccount, holdAmount, events);
    if (typeof hold === "string") return refused(hold === "LEDGER_INSUFFICIENT_AVAILABLE" ? "RISK_INSUFFICIENT_AVAILABLE" : "ORDER_BAD_COMMAND");
    if (isStop) {
      this.waiting.set(cmd.orderId, { cmd, hold });
      this.stops.add({ id: cmd.orderId, side: cmd.side, profitPrice: cmd.stopProfitPrice, lossPrice: cmd.stopLossPrice });
      return { code: "OK", events };
    }

    const tradesBefore = this.tradeCount;
    const refusal = this.enter(cmd, byMoney, hold, events);
    if (refusal) return refused(refusal);
    if (this.tradeCount > tradesBefore && this.stops.size > 0) this.runStops(events);
    events.push({ type: "book.changed", symbol: c.symbol });
    return { code: "OK", events };
  }

  /**
   * Puts an order whose funds are held on the book and settles what it trades, adding what
   * happened to `events`. Returns the book's refusal, if any (the hold is then released).
   */
  private enter(cmd: SpotPlaceCommand, byMoney: boolean, hold: LedgerHold, events: CoreEvent[]): SpotCode | null {
    const bookEvents = this.book.place({
      id: cmd.orderId,
      memberId: cmd.memberId,
      side: cmd.side,
      type: cmd.type,
      price: cmd.price,
      quantity: byMoney ? undefined : cmd.quantity,
      quoteAmount: byMoney ? cmd.money! / this.valueFactor : undefined,
      tif: cmd.tif,
      ref: hold,
    });
    // The book answers the order's acceptance first, then its trades, then its end if it did not rest.
    let ended = false;
    let resting = false;
    for (const event of bookEvents) {
      if (event.type === "rejected") {
        this.release(hold, events);
        return event.code === "MATCHING_POST_ONLY_WOULD_TRADE" || event.code === "MATCHING_FOK_NOT_FILLED" || event.code === "MATCHING_DUPLICATE_ID"
          ? event.code
          : "ORDER_BAD_COMMAND";
      }
      if (event.type === "accepted") resting = event.resting;
      else if (event.type === "trade") this.settle(event, hold, events);
      else if (event.type === "cancelled") {
        events.push(this.closedEvent(event.orderId, cmd.memberId, "cancelled", event.reason));
        this.release(hold, events);
        ended = true;
      }
    }
    if (!resting && !ended) {
      // Fully filled on arrival.
      events.push(this.closedEvent(cmd.orderId, cmd.memberId, "filled"));
      this.release(hold, events);
    }
    return null;
  }

  /**
   * Fires the stops the last price has reached and places each, in this same command; what they
   * trade can fire more. A stop leaves the trigger book before it is placed and never returns,
   * so a cascade ends after at most as many placements as there were waiting stops.
   */
  private runStops(events: CoreEvent[]): void {
    const queue: Array<FiredStop & { lastPrice: bigint }> = [];
    const fire = () => {
      const last = this.last!;
      for (const fired of this.stops.fire(last)) queue.push({ ...fired, lastPrice: last });
    };
    fire();
    const symbol = this.config.symbol;
    for (let i = 0; i < queue.length; i++) {
      const fired = queue[i]!;
      const { cmd, hold } = this.waiting.get(fired.id)!;
      this.waiting.delete(fired.id);
      events.push({
        type: "order.triggered",
        symbol,
        orderId: cmd.orderId,
        memberId: cmd.memberId,
        side: cmd.side,
        kind: fired.kind,
        stopPrice: fired.stopPrice,
        lastPrice: fired.lastPrice,
      });
      const tradesBefore = this.tradeCount;
      const refusal = this.enter(cmd, isByMoney(cmd), hold, events);
      if (refusal) events.push(this.closedEvent(cmd.orderId, cmd.memberId, "cancelled", REFUSAL_REASONS[refusal] ?? "rejected"));
      if (this.tradeCount > tradesBefore && this.stops.size > 0) fire();
    }
  }

  private placedEvent(cmd: SpotPlaceCommand, waiting: boolean): CoreEvent {
    return {
      type: "order.placed",
      symbol: this.config.symbol,
      orderId: cmd.orderId,
      memberId: cmd.memberId,
      side: cmd.side,
      orderType: cmd.type,
      tif: cmd.tif,
      price: cmd.price,
      quantity: cmd.quantity,
      money: cmd.money,
      stopProfitPrice: cmd.stopProfitPrice,
      stopLossPrice: cmd.stopLossPrice,
      waiting,
      ...(cmd.clientOrderId !== undefined ? { clientOrderId: cmd.clientOrderId } : {}),
      ...(cmd.account !== undefined && cmd.account !== "spot" ? { account: cmd.account } : {}),
    };
  }

  private closedEvent(orderId: string, memberId: string, status: "filled" | "cancelled", reason?: string): CoreEvent {
    return reason === undefined
      ? { type: "order.closed", symbol: this.config.symbol, orderId, memberId, status }
      : { type: "order.closed", symbol: this.config.symbol, orderId, memberId, status, reason };
  }

  /** A stop's prices: on tick, on the right side of each other and of the last price (else it would fire at once). */
  private checkStop(cmd: SpotPlaceCommand, byMoney: boolean): SpotCode | null {
    const profit = cmd.stopProfitPrice;
    const loss = cmd.stopLossPrice;
    for (const price of [profit, loss]) {
      if (price === undefined) continue;
      if (price <= 0n) return "ORDER_BAD_COMMAND";
      if (price >= this.maxPrice) return "ORDER_OUT_OF_RANGE";
      if (price % this.config.tickSize !== 0n) return "ORDER_BAD_TICK";
    }
    // Its hold must cover whatever it can cost when it fires: a market buy names the money it spends.
    if (cmd.type === "market" && cmd.side === "buy" && !byMoney) return "STOP_MARKET_BUY_BY_AMOUNT";
    if (cmd.type === "market" && cmd.tif === "POST_ONLY") return "ORDER_BAD_COMMAND";
    // A sell takes profit above and stops the loss below; a buy the reverse.
    const above = cmd.side === "sell" ? profit : loss;
    const below = cmd.side === "sell" ? loss : profit;
    if (above !== undefined && below !== undefined && above <= below) return "STOP_PRICES_CROSSED";
    const last = this.last;
    if (last !== undefined) {
      const wrong = (price: bigint | undefined, mustBeAbove: boolean) => price !== undefined && (mustBeAbove ? price <= last : price >= last);
      if (wrong(profit, cmd.side === "sell")) return "STOP_PROFIT_WOULD_TRIGGER";
      if (wrong(loss, cmd.side === "buy")) return "STOP_LOSS_WOULD_TRIGGER";
    }
    return null;
  }

  /**
   * A persisted resting order (a snapshot's, or the tables') with what is left of its hold (null:
   * none), in queue order: the hold is kept by the order, on the member's account record this
   * market keeps (no id looked up per order). The account's held amount was restored with it.
   */
  restoreWithHold(orderId: string, memberId: string, side: Side, price: bigint, remaining: bigint, held: bigint | null, account?: AccountKind): void {
    let hold: LedgerHold | undefined;
    let member = memberId;
    if (held !== null) {
      const accounts = this.accountsOf(memberId, account);
      member = accounts.memberId;
      hold = this.ledger.restoreAttachedHold(orderId, side === "buy" ? accounts.quote : accounts.base, held);
    }
    this.book.restoreResting(orderId, member, side, price, remaining, hold);
  }

  /** Whether the order rests on this market's book or waits here for its stop price. */
  holds(orderId: string): boolean {
    return this.book.has(orderId) || (this.waiting.size > 0 && this.waiting.has(orderId));
  }

  /** Waiting stop orders in placement order (their priority at a trigger price): `restoreStop` them in this order. */
  *waitingOrders(): Generator<Readonly<SpotPlaceCommand>> {
    for (const { cmd } of this.waiting.values()) yield cmd;
  }

  /** Puts a persisted waiting stop back at start (after the last price), with what its hold reserves. */
  restoreStop(cmd: SpotPlaceCommand, held: bigint): void {
    const accounts = this.accountsOf(cmd.memberId, cmd.account);
    const hold = this.ledger.restoreAttachedHold(cmd.orderId, cmd.side === "buy" ? accounts.quote : accounts.base, held);
    this.waiting.set(cmd.orderId, { cmd, hold });
    this.stops.add({ id: cmd.orderId, side: cmd.side, profitPrice: cmd.stopProfitPrice, lossPrice: cmd.stopLossPrice });
  }

  /** Restores the last trade price at start (stops compare against it). */
  restoreLastPrice(price: bigint | undefined): void {
    this.last = price;
  }

  /**
   * The ids of a member's resting and waiting orders from one of their accounts (spot, or a margin
   * account's kind): what a margin liquidation cancels. A scan of the book: liquidations are rare.
   */
  ordersFrom(memberId: string, kind: AccountKind): string[] {
    const pair = kind === "spot" ? this.accounts.get(memberId) : this.otherAccounts.get(`${kind}\t${memberId}`);
    if (!pair) return [];
    const ids: string[] = [];
    for (const o of this.book.resting()) {
      const hold = o.memberId === memberId ? holdIn(o.ref) : undefined;
      if (hold && this.pairs.get(hold.account) === pair) ids.push(o.id);
    }
    for (const [id, { cmd, hold }] of this.waiting) if (cmd.memberId === memberId && this.pairs.get(hold.account) === pair) ids.push(id);
    return ids;
  }

  /** Quote minor units per unit of money a market buy by money may name (its `money` must be a multiple). */
  get moneyUnit(): bigint {
    return this.valueFactor;
  }

  /** Units of an asset per unit of quantity (base minor units per quantity unit). */
  get baseUnitsPerQuantity(): bigint {
    return this.baseFactor;
  }

  cancel(orderId: string, memberId: string): SpotResult {
    const stop = this.waiting.size > 0 ? this.waiting.get(orderId) : undefined;
    if (stop) {
      if (stop.cmd.memberId !== memberId) return refused("ORDER_NOT_OWNER");
      this.waiting.delete(orderId);
      this.stops.remove(orderId);
      const events: CoreEvent[] = [this.closedEvent(orderId, memberId, "cancelled", "user")];
      this.release(stop.hold, events);
      return { code: "OK", events };
    }
    const ended = this.book.cancel(orderId, memberId)[0]!;
    if (ended.type !== "cancelled") return refused(ended.type === "rejected" && ended.code === "MATCHING_NOT_OWNER" ? "ORDER_NOT_OWNER" : "ORDER_UNKNOWN");
    // Its hold, kept with the order.
    const hold = holdIn(ended.ref);
    const closed = this.closedEvent(orderId, memberId, "cancelled", "user");
    const changed: CoreEvent = { type: "book.changed", symbol: this.config.symbol };
    // Written out whole: an array grown by pushes reserves room for 16 more events than it gets.
    return { code: "OK", events: hold && hold.remaining > 0n ? [closed, this.releaseTransfer(hold), changed] : [closed, changed] };
  }

  /** Quote that buying `quantity` costs now, walking the asks (all of them if the book is thinner). */
  private costToBuy(quantity: bigint): bigint {
    let need = quantity;
    let cost = 0n;
    for (const [price, total] of this.book.depth(Number.MAX_SAFE_INTEGER).asks) {
      const take = need < total ? need : total;
      cost += this.value(price, take);
      need -= take;
      if (need === 0n) break;
    }
    return cost;
  }

  /** Posts one trade from both holds (each kept with its order): to the counterparties and the fee accounts. */
  private settle(trade: Extract<BookEvent, { type: "trade" }>, takerHold: LedgerHold, events: CoreEvent[]): void {
    const c = this.config;
    const makerHold = holdIn(trade.makerRef);
    if (!makerHold) throw new Error(`settlement without the maker's hold (${trade.makerOrderId}): a bug, the holds must cover every trade`);
    const takerBuys = trade.takerSide === "buy";
    const buyer = takerBuys ? trade.takerMemberId : trade.makerMemberId;
    const seller = takerBuys ? trade.makerMemberId : trade.takerMemberId;
    const buyerHold = takerBuys ? takerHold : makerHold;
    const sellerHold = takerBuys ? makerHold : takerHold;
    const value = this.value(trade.price, trade.quantity);
    this.last = trade.price;
    this.tradeCount++;
    const baseAmount = trade.quantity * this.baseFactor;
    const buyerFee = (baseAmount * (takerBuys ? c.takerFeeBps : c.makerFeeBps)) / 10_000n;
    const sellerFee = (value * (takerBuys ? c.makerFeeBps : c.takerFeeBps)) / 10_000n;
    events.push({
      type: "trade",
      symbol: c.symbol,
      takerOrderId: trade.takerOrderId,
      makerOrderId: trade.makerOrderId,
      buyer,
      seller,
      price: trade.price,
      quantity: trade.quantity,
      value,
      buyerFee,
      sellerFee,
      takerSide: trade.takerSide,
    });
    // The buyer's hold pays the value (to the seller, less the seller's fee); the seller's the base.
    // Each side is paid into the pair its own hold is on: spot, or the margin account it traded from.
    this.pay(buyerHold, value, this.pairOf(sellerHold).quote, sellerFee, this.quoteFees, events);
    this.pay(sellerHold, baseAmount, this.pairOf(buyerHold).base, buyerFee, this.baseFees, events);
    if (trade.makerFilled) {
      events.push(this.closedEvent(trade.makerOrderId, trade.makerMemberId, "filled"));
      this.release(makerHold, events);
    }
  }

  /** One side of a trade: `total` from its hold, `fee` of it to the exchange and the rest to `to`. */
  private pay(hold: LedgerHold, total: bigint, to: LedgerAccount, fee: bigint, feeAccount: LedgerAccount, events: CoreEvent[]): void {
    const code = this.ledger.payFromHoldWithFee(hold, total, to, fee, feeAccount, this.nextTransferId, events);
    if (code !== "OK") throw new Error(`settlement refused (${code}): a bug, the holds must cover every trade`);
  }

  /** Releases what is left of an order's hold, if anything (an order that ends). */
  private release(hold: LedgerHold, events: CoreEvent[]): void {
    if (hold.remaining > 0n) events.push(this.releaseTransfer(hold));
  }

  private releaseTransfer(hold: LedgerHold): TransferEvent {
    return this.ledger.releaseHold(`${hold.id}:release`, hold);
  }

  /** Funds held by resting orders must be at least what they can still cost. */
  checkInvariants(): string[] {
    const problems = this.book.checkInvariants();
    for (const resting of this.book.resting()) {
      const needed = resting.side === "buy" ? this.value(resting.price, resting.remaining) : resting.remaining * this.baseFactor;
      const held = holdIn(resting.ref)?.remaining ?? 0n;
      if (held < needed) problems.push(`${resting.id}: holds ${held}, needs ${needed}`);
    }
    // Waiting stops: held for what they can cost once fired; all in the trigger book; none due.
    for (const [orderId, { cmd, hold }] of this.waiting) {
      if (this.book.has(orderId)) problems.push(`${orderId}: waiting and on the book`);
      if (!this.stops.has(orderId)) problems.push(`${orderId}: waiting without a trigger`);
      const needed = cmd.side === "sell" ? cmd.quantity! * this.baseFactor : isByMoney(cmd) ? cmd.money! : this.value(cmd.price!, cmd.quantity!);
      const held = hold.remaining;
      if (held < needed) problems.push(`${orderId}: waiting, holds ${held}, needs ${needed}`);
    }
    if (this.stops.size !== this.waiting.size) problems.push(`trigger book has ${this.stops.size} stops, ${this.waiting.size} are waiting`);
    problems.push(...this.stops.checkInvariants(this.last));
    return problems;
  }
}

function isByMoney(cmd: SpotPlaceCommand): boolean {
  return cmd.type === "market" && cmd.side === "buy" && cmd.money !== undefined && cmd.quantity === undefined;
}

/** Why a fired stop the book refused is closed (the command that fired it still stands). */
const REFUSAL_REASONS: Partial<Record<SpotCode, string>> = {
  MATCHING_POST_ONLY_WOULD_TRADE: "post-only",
  MATCHING_FOK_NOT_FILLED: "fok",
};
