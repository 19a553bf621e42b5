import { createHash } from "node:crypto";
import { clearingAccount, feeAccount, insuranceAccount, type Ledger, type LedgerAccount, type LedgerHold, type TransferEvent } from "../ledger/ledger";
import { OrderBook, type BookEvent, type Side, type TimeInForce } from "../matching/order-book";
import {
  ContractStops,
  firesAt,
  MAX_STOPS_PER_MEMBER,
  stopKindFor,
  type Fired,
  type TriggerSource,
  type WaitingStop,
  type WaitingStopState,
} from "./contract-stops";
import {
  averageEntry,
  bankruptcyPrice,
  contractSpecProblem,
  fundingPayment,
  liquidationPrice,
  maintenanceMargin,
  unrealisedPnl,
  contractValue,
  costShare,
  divCeil,
  initialMargin,
  RATE_ONE,
  pnlOfValue,
  tierOf,
  type ContractSpec,
  type PositionCost,
  type PositionSide,
  type RiskTier,
} from "./contract-math";

/**
 * One perpetual contract's market (issue 30, decision 045): orders held for their margin and fee
 * before they reach the book (the spot market's book code), each trade settled into the two
 * members' positions in the same synchronous command. One-way positions with isolated margin:
 * a member has one position per contract, long or short.
 *
 * The ledger (every move a transfer; nothing made, nothing lost):
 * - an order holds, on the member's contract account, its opening contracts' initial margin at
 *   its limit price and the taker fee on all of it (a close holds only the fee);
 * - a fill pays the fee to the fee account and moves the opening contracts' margin to the
 *   member's margin account (the sum of their positions' margins); a close moves the closed
 *   share of the margin back, then settles the realised profit or loss against the clearing
 *   account (decision 045: its balance is minus the open positions' profit and loss);
 * - a loss beyond the position's margin is taken from the member's free balance (isolated margin
 *   never lets it come to that once liquidation runs; the insurance fund covers what is left).
 *
 * Prices are at the spec's price scale, quantities whole contracts, money at the settlement
 * asset's scale. Market orders trade as IOC limits at the mark ± the price band, and hold for that.
 */

export interface ContractMarketConfig {
  /** BTC/USDT (linear) or BTC/USD (inverse). */
  symbol: string;
  spec: ContractSpec;
  /** USDT for linear, the base coin for inverse. */
  settleAsset: string;
  /** Prices are multiples of this (price units). */
  tickSize: bigint;
  /** Contracts per order, at least and at most. */
  minQty: bigint;
  maxQty: bigint;
  makerFeeBps: number;
  takerFeeBps: number;
  tiers: readonly RiskTier[];
  /** How far from the mark a market order may trade and a limit order may be placed (RATE units). */
  priceBand: bigint;
  /** A member's leverage until they choose one (at most the first band's maximum). */
  defaultLeverage: number;
}

export type ContractAction = "open" | "close";

export interface ContractPlace {
  orderId: string;
  memberId: string;
  side: Side;
  action: ContractAction;
  type: "limit" | "market";
  /** Limit orders. */
  price?: bigint;
  qty: bigint;
  tif: TimeInForce;
  /** 1 to the risk band's maximum (opening orders). */
  leverage: number;
  /** The mark price when the order arrives (market orders trade within its band). */
  mark: bigint;
  /** A one-key close of the whole position: the order limits (minimum, maximum contracts) do not apply. */
  wholePosition?: boolean;
}

export type ContractCode =
  | "OK"
  | "CONTRACT_BAD_ORDER"
  | "CONTRACT_TICK"
  | "CONTRACT_QTY"
  | "CONTRACT_LEVERAGE"
  | "CONTRACT_LEVERAGE_BAND"
  | "CONTRACT_PRICE_BAND"
  | "CONTRACT_INSUFFICIENT_MARGIN"
  | "CONTRACT_CLOSE_FIRST"
  | "CONTRACT_NOTHING_TO_CLOSE"
  | "CONTRACT_CLOSE_TOO_MUCH"
  | "CONTRACT_UNKNOWN_ORDER"
  | "CONTRACT_POST_ONLY_WOULD_TRADE"
  | "CONTRACT_FOK_NOT_FILLED"
  | "CONTRACT_DUPLICATE_ID"
  | "CONTRACT_ORDERS_OPEN"
  | "CONTRACT_MARGIN_BELOW_INITIAL"
  | "CONTRACT_TRIGGER_PRICE"
  | "CONTRACT_TOO_MANY_STOPS"
  | "CONTRACT_POSITION_OPEN"
  | "CONTRACT_MARGIN_MODE";

/**
 * How a member's position here is margined (decision 049): `isolated` (the default: its own margin
 * is all it risks) or `cross` (the member's free balance of the settlement coin backs it too, so it
 * is liquidated later, and a liquidation may take that balance).
 */
export type MarginMode = "isolated" | "cross";

/** A member's position in this contract, and the margin their margin account holds for it. */
export interface Position extends PositionCost {
  memberId: string;
  margin: bigint;
  leverage: number;
  /** Where the mark liquidates it (decision 045, at its entry's risk band); null: nowhere, or not watched (the insurance fund's). */
  liquidation: bigint | null;
}

/**
 * A stop order (decision 048): when the `triggerBy` price reaches `triggerPrice` it is placed as
 * the order it describes (a limit at `price`, or a market order), at the member's leverage then.
 * It fires on the side of the price where it was placed: above it when the price rises to it,
 * below it when it falls.
 */
export interface ContractStopPlace {
  stopId: string;
  memberId: string;
  side: Side;
  action: ContractAction;
  type: "limit" | "market";
  price?: bigint;
  qty: bigint;
  tif: TimeInForce;
  triggerBy: TriggerSource;
  triggerPrice: bigint;
  mark: bigint;
}

/** An order entered its market (its hold, if any, is the transfer after it): placed by its member, or by a stop that fired. */
export interface ContractOrderPlaced {
  type: "contract.placed";
  symbol: string;
  orderId: string;
  memberId: string;
  side: Side;
  action: "open" | "close";
  orderType: "limit" | "market";
  tif: TimeInForce;
  /** A limit's price; null for a market order (it trades within the band around the mark). */
  price: bigint | null;
  quantity: bigint;
  leverage: number;
}

/** A conditional order began to wait: a stop order, or a position's take profit and stop loss (`qty` null: the whole position). */
export interface ContractStopPlaced {
  type: "contract.stop_placed";
  symbol: string;
  stopId: string;
  memberId: string;
  side: Side;
  action: ContractAction;
  orderType: "limit" | "market";
  tif: TimeInForce;
  price: bigint | null;
  qty: bigint | null;
  triggerBy: TriggerSource;
  profitPrice: bigint | null;
  lossPrice: bigint | null;
}

/**
 * A conditional order stopped waiting: `triggered` (its order was placed, under the stop's id),
 * `failed` (it fired but its order was refused: `reason` is the refusal's code) or `cancelled`
 * (`reason`: user, replaced, position_closed, liquidation, close_all).
 */
export interface ContractStopEnded {
  type: "contract.stop_ended";
  symbol: string;
  stopId: string;
  memberId: string;
  status: "triggered" | "failed" | "cancelled";
  reason: string | null;
  /** The trigger price that fired it (triggered, failed). */
  firedPrice: bigint | null;
  /** Which trigger fired: a position's take profit or stop loss, or a stop order's; null when it did not fire. */
  fired: "take_profit" | "stop_loss" | "stop" | null;
}

/** The owner of positions the insurance fund took over from liquidations the book could not fill. */
export const INSURANCE_OWNER = "@insurance";

export type ContractEvent =
  | TransferEvent
  | ContractTrade
  | ContractOrderPlaced
  | ContractStopPlaced
  | ContractStopEnded
  | { type: "contract.position"; symbol: string; memberId: string; side: PositionSide | null; qty: bigint; cost: bigint; margin: bigint; realised: bigint }
  | { type: "contract.deficit"; symbol: string; memberId: string; amount: bigint }
  /** The insurance fund paid `amount` of the market's deficit into the clearing account. */
  | { type: "contract.deficit_covered"; symbol: string; amount: bigint }
  | {
      type: "contract.liquidated";
      symbol: string;
      memberId: string;
      side: PositionSide;
      qty: bigint;
      mark: bigint;
      bankruptcy: bigint;
      /** Contracts closed in the book at or better than the bankruptcy price; the rest the insurance fund took over. */
      filled: bigint;
      takenOver: bigint;
      /** What was left of the margin, to the insurance fund. */
      toInsurance: bigint;
    }
  | { type: "contract.funding"; symbol: string; memberId: string; rate: bigint; mark: bigint; amount: bigint }
  | { type: "contract.leverage"; symbol: string; memberId: string; leverage: number }
  | { type: "contract.margin_mode"; symbol: string; memberId: string; mode: MarginMode }
  | { type: "contract.deleveraged"; symbol: string; memberId: string; qty: bigint; price: bigint }
  | { type: "contract.order_ended"; symbol: string; orderId: string; memberId: string; remaining: bigint; reason: string };

/** Where a market's events go (an array of them, or of a wider union that includes them). */
export interface EventSink {
  push(...events: ContractEvent[]): unknown;
}

/** One trade, with each side's member, action, fee paid and profit realised (a member's fills are read from these). */
export interface ContractTrade {
  type: "contract.trade";
  symbol: string;
  takerOrderId: string;
  makerOrderId: string;
  takerSide: Side;
  price: bigint;
  qty: bigint;
  taker: TradeSide;
  maker: TradeSide;
}

export interface TradeSide {
  memberId: string;
  action: ContractAction;
  /** The fee paid (settlement units; a liquidation's close pays none). */
  fee: bigint;
  /** Profit (or loss, negative) realised by a close; 0 for an open. */
  realised: bigint;
}

/** A market's state as the core's snapshot keeps it (amounts as decimal integers of their units). */
export interface ContractMarketState {
  symbol: string;
  deficit: string;
  /** Members' chosen leverages (those not at the default). */
  leverages: Array<[memberId: string, leverage: number]>;
  positions: Array<{ memberId: string; side: PositionSide; qty: string; cost: string; margin: string; leverage: number }>;
  /** The last trade price (stops by last price watch it); absent in older snapshots. */
  last?: string | null;
  /** Waiting conditional orders in placement order; absent in older snapshots. */
  stops?: WaitingStopState[];
  /** Members in cross margin here (decision 049); absent in older snapshots. */
  cross?: string[];
  orders: Array<{
    id: string;
    memberId: string;
    side: Side;
    action: ContractAction;
    price: string;
    holdPrice: string;
    leverage: number;
    remaining: string;
    marginLeft: string;
    feeLeft: string;
  }>;
}

/** An open order as others read it (the projection writes its row from this). */
export interface OpenOrderView {
  id: string;
  memberId: string;
  side: Side;
  action: ContractAction;
  holdPrice: bigint;
  leverage: number;
  remaining: bigint;
  marginLeft: bigint;
  feeLeft: bigint;
}

/** What an order keeps while it is open (its book reference). */
interface OpenOrder {
  id: string;
  memberId: string;
  side: Side;
  action: ContractAction;
  /** The price its margin was held at (its limit, or a market order's band edge). */
  holdPrice: bigint;
  leverage: number;
  /** Contracts not yet filled. */
  remaining: bigint;
  hold: LedgerHold | null;
  /** What the hold still keeps for the margin of the contracts not yet filled, and for fees. */
  marginLeft: bigint;
  feeLeft: bigint;
  /** The liquidation engine's close of a member's position: no fee; what its margin keeps goes to the insurance fund. */
  liquidation?: boolean;
}

/** A member's open orders in one market and their contracts left, by action and side. */
interface MemberOrders {
  orders: Set<OpenOrder>;
  open: Record<Side, bigint>;
  close: Record<Side, bigint>;
}

const BPS = 10_000n;
/** What an account record has free (posted less held). */
const availableIn = (account: LedgerAccount) => account.posted - account.held;
const positionSideOf = (side: Side): PositionSide => (side === "buy" ? "long" : "short");

export class ContractMarket {
  private readonly book = new OrderBook();
  private readonly positionsByMember = new Map<string, Position>();
  private readonly orders = new Map<string, OpenOrder>();
  /** Each member's open orders here, in placement order, with what they would open and close per side (no scan of every order per placement). */
  private readonly ordersByMember = new Map<string, MemberOrders>();
  private readonly fees: LedgerAccount;
  private readonly clearing: LedgerAccount;
  private readonly insurance: LedgerAccount;
  /** Members' account records here (looked up by id once, not on every fill). */
  private readonly memberAccounts = new Map<string, { contract: LedgerAccount; position: LedgerAccount }>();
  /** Losses nobody covered yet (the clearing account is short of them). */
  private deficit = 0n;
  /** Contracts held long in all (= short): the open interest. */
  private longContracts = 0n;
  /** The mark of the command running (set by each placement and tick before anything fills). */
  private lastMark: bigint | null = null;
  /** Leverages members chose (`setLeverage`); the rest trade at the default. */
  private readonly leverages = new Map<string, number>();
  /** Conditional orders waiting for the mark or the last price (decision 048). */
  private readonly stops = new ContractStops();
  /** The last trade price (stops by last price watch it); null before the first trade. */
  private lastPrice: bigint | null = null;
  /** Set while fired stops are being placed: their placements do not start another round. */
  private firing = false;
  /** Members who chose cross margin here (decision 049); the rest are isolated. */
  private readonly crossMembers = new Set<string>();
  constructor(
    readonly config: ContractMarketConfig,
    private readonly ledger: Ledger,
    /** A new transfer id: the core's, from the command's sequence number (so a replay makes the same ids). */
    private readonly nextId: () => string,
  ) {
    const problem = contractSpecProblem(config.spec);
    if (problem) throw new RangeError(`${config.symbol}: ${problem}`);
    this.fees = ledger.account(feeAccount(config.settleAsset));
    this.clearing = ledger.account(clearingAccount(config.settleAsset));
    this.insurance = ledger.account(insuranceAccount(config.settleAsset));
  }

  /** A member's contract account (their free balance in the settlement coin), its record kept once. */
  private contractAccount(memberId: string): LedgerAccount {
    return this.accountsOf(memberId).contract;
  }

  /** A member's position account (their positions' margins in the settlement coin). */
  private marginAccount(memberId: string): LedgerAccount {
    return this.accountsOf(memberId).position;
  }

  private accountsOf(memberId: string): { contract: LedgerAccount; position: LedgerAccount } {
    let records = this.memberAccounts.get(memberId);
    if (!records) {
      const asset = this.config.settleAsset;
      records = {
        contract: this.ledger.account({ owner: memberId, kind: "contract", asset }),
        position: this.ledger.account({ owner: memberId, kind: "position", asset }),
      };
      this.memberAccounts.set(memberId, records);
    }
    return records;
  }

  /** A member's margin mode here. */
  marginModeOf(memberId: string): MarginMode {
    return this.crossMembers.has(memberId) ? "cross" : "isolated";
  }

  /** Whether any member trades here in cross margin (the core re-watches their positions when their balance moves). */
  get hasCross(): boolean {
    return this.crossMembers.size > 0;
  }

  /**
   * A member's margin mode here (decision 049): only with no position and no open order here (a
   * position keeps the mode it was opened in). Answers OK when it is already the mode.
   */
  setMarginMode(memberId: string, mode: MarginMode, out: EventSink): ContractCode {
    if (mode !== "cross" && mode !== "isolated") return "CONTRACT_BAD_ORDER";
    if (this.positionsByMember.has(memberId)) return "CONTRACT_POSITION_OPEN";
    if (this.ordersByMember.has(memberId)) return "CONTRACT_ORDERS_OPEN";
    if (mode === "cross") this.crossMembers.add(memberId);
    else this.crossMembers.delete(memberId);
    out.push({ type: "contract.margin_mode", symbol: this.config.symbol, memberId, mode });
    return "OK";
  }

  /**
   * A cross position placed again at the liquidation price its member's free balance now gives
   * (after that balance moved: a transfer, a fill or fee elsewhere, an order's hold).
   */
  rewatchCross(memberId: string): void {
    const position = this.crossMembers.has(memberId) ? this.positionsByMember.get(memberId) : undefined;
    if (position) this.watch(position);
  }

  /** What stands between a position and its liquidation: its margin, and in cross margin its member's free balance too. */
  private backing(position: Position): bigint {
    if (!this.crossMembers.has(position.memberId)) return position.margin;
    const free = availableIn(this.contractAccount(position.memberId));
    return free > 0n ? position.margin + free : position.margin;
  }

  /** The leverage a member's next opening order takes: their position's, else the one they chose, else the default. */
  leverageOf(memberId: string): number {
    return this.positionsByMember.get(memberId)?.leverage ?? this.leverages.get(memberId) ?? this.config.defaultLeverage;
  }

  /** The market's open order (its member, side and what is left), if it is open. */
  openOrder(orderId: string): Readonly<OpenOrderView> | undefined {
    return this.orders.get(orderId);
  }

  /** A waiting conditional order, if `id` is one. */
  waitingStop(id: string): Readonly<WaitingStop> | undefined {
    return this.stops.get(id);
  }

  /** A member's waiting conditional orders here, in placement order. */
  stopsOf(memberId: string): Iterable<Readonly<WaitingStop>> {
    return this.stops.of(memberId);
  }

  /** A member's take profit and stop loss on their position here, if set. */
  positionStopsOf(memberId: string): Readonly<WaitingStop> | undefined {
    return this.stops.positionStopOf(memberId);
  }

  /** The last trade price; null before the first trade. */
  get last(): bigint | null {
    return this.lastPrice;
  }

  /** Contracts held long in all, which is what is held short: the open interest. */
  get openInterest(): bigint {
    return this.longContracts;
  }

  /** Each member's open orders here. */
  openOrdersOf(memberId: string): Iterable<Readonly<OpenOrderView>> {
    return this.ordersOf(memberId);
  }

  /** Orders resting in the book, each side best first, as [price, contracts] levels. */
  depth(levels: number): { bids: Array<[bigint, bigint]>; asks: Array<[bigint, bigint]> } {
    return this.book.depth(levels);
  }

  /** Contracts resting in the book. */
  get restingOrders(): number {
    return this.book.size;
  }

  position(memberId: string): Position | undefined {
    return this.positionsByMember.get(memberId);
  }

  positions(): IterableIterator<Position> {
    return this.positionsByMember.values();
  }

  /**
   * Where the mark would liquidate a member's position after opening `qty` contracts on `side` at
   * `price` with their leverage (decision 045; the preview before placing, changing nothing): their
   * position, if they hold one on that side, grows by the contracts at that price and by their
   * initial margin. Null: nowhere (a long at 1x never is). "CONTRACT_CLOSE_FIRST" when they hold the
   * other side (opening it is refused).
   */
  previewOpen(memberId: string, side: Side, qty: bigint, price: bigint): { liquidation: bigint | null; leverage: number } | "CONTRACT_CLOSE_FIRST" {
    const held = this.positionsByMember.get(memberId);
    const positionSide = positionSideOf(side);
    if (held && held.side !== positionSide) return "CONTRACT_CLOSE_FIRST";
    const leverage = this.leverageOf(memberId);
    const value = contractValue(this.config.spec, qty, price);
    const after: Position = {
      memberId,
      side: positionSide,
      qty: (held?.qty ?? 0n) + qty,
      cost: (held?.cost ?? 0n) + value,
      margin: (held?.margin ?? 0n) + initialMargin(value, leverage),
      leverage,
      liquidation: null,
    };
    return { liquidation: this.liquidationOf(after), leverage };
  }

  /** Checks an order, holds what it needs and matches it; events in `out`. Nothing changes on a refusal. */
  place(cmd: ContractPlace, out: EventSink): ContractCode {
    const { config } = this;
    if (this.orders.has(cmd.orderId) || this.stops.get(cmd.orderId)) return "CONTRACT_DUPLICATE_ID";
    this.lastMark = cmd.mark;
    if (!cmd.wholePosition && (cmd.qty < config.minQty || cmd.qty > config.maxQty)) return "CONTRACT_QTY";
    if (cmd.type === "limit" && (cmd.price === undefined || cmd.price <= 0n)) return "CONTRACT_BAD_ORDER";
    if (cmd.type === "limit" && cmd.price! % config.tickSize !== 0n) return "CONTRACT_TICK";
    if (cmd.type === "market" && (cmd.tif === "GTC" || cmd.tif === "POST_ONLY")) return "CONTRACT_BAD_ORDER";
    const bandEdge = this.bandEdge(cmd.side, cmd.mark);
    if (cmd.type === "limit" && (cmd.side === "buy" ? cmd.price! > bandEdge : cmd.price! < bandEdge)) return "CONTRACT_PRICE_BAND";
    const limit = cmd.type === "limit" ? cmd.price! : bandEdge;

    const held = this.positionsByMember.get(cmd.memberId);
    const opens = cmd.action === "open";
    if (opens) {
      if (!Number.isInteger(cmd.leverage) || cmd.leverage < 1) return "CONTRACT_LEVERAGE";
      // One-way positions: opening the other way is a close first, also while open orders the
      // other way wait (so a position only shrinks by its closes, and they never exceed it).
      if (held && held.side !== positionSideOf(cmd.side)) return "CONTRACT_CLOSE_FIRST";
      if (this.openingQty(cmd.memberId, cmd.side === "buy" ? "sell" : "buy") > 0n) return "CONTRACT_CLOSE_FIRST";
      if (held && held.leverage !== cmd.leverage) return "CONTRACT_LEVERAGE";
      // A position has one leverage: opening orders waiting at another are refused.
      for (const o of this.ordersOf(cmd.memberId)) if (o.action === "open" && o.leverage !== cmd.leverage) return "CONTRACT_LEVERAGE";
      const after = contractValue(config.spec, (held?.qty ?? 0n) + this.openingQty(cmd.memberId, cmd.side) + cmd.qty, limit);
      if (tierOf(config.tiers, after).maxLeverage < cmd.leverage) return "CONTRACT_LEVERAGE_BAND";
    } else {
      if (!held || held.side === positionSideOf(cmd.side)) return "CONTRACT_NOTHING_TO_CLOSE";
      // Reduce-only: what this and the member's other open closes would take is at most the position.
      if (this.closingQty(cmd.memberId, cmd.side) + cmd.qty > held.qty) return "CONTRACT_CLOSE_TOO_MUCH";
    }

    const value = contractValue(config.spec, cmd.qty, limit);
    // A close holds nothing: its fee is paid from what it frees (so a member with no free balance
    // can still close). An opening order holds its fee, its initial margin and what a fill at its
    // limit would already have lost at the mark, so no position starts below its initial margin.
    const fee = opens ? divCeil(value * BigInt(config.takerFeeBps), BPS) : 0n;
    const atMark = contractValue(config.spec, cmd.qty, cmd.mark);
    const lossAtMark = -pnlOfValue(config.spec, positionSideOf(cmd.side), value, atMark);
    const margin = opens ? initialMargin(value, cmd.leverage) + (lossAtMark > 0n ? lossAtMark : 0n) : 0n;
    const need = margin + fee;
    const order: OpenOrder = {
      id: cmd.orderId,
      memberId: cmd.memberId,
      side: cmd.side,
      action: cmd.action,
      holdPrice: limit,
      leverage: cmd.leverage,
      remaining: cmd.qty,
      hold: null,
      marginLeft: margin,
      feeLeft: fee,
    };
    let pending: TransferEvent | null = null;
    if (need > 0n) {
      const account = this.contractAccount(cmd.memberId);
      const hold = this.ledger.openHold(`hold:${cmd.orderId}`, account, need);
      if (typeof hold === "string") return "CONTRACT_INSUFFICIENT_MARGIN";
      pending = hold;
      order.hold = this.ledger.findHold(hold.id)!;
    }
    this.track(order);
    const events = this.book.place({
      id: cmd.orderId,
      memberId: cmd.memberId,
      side: cmd.side,
      type: "limit",
      price: limit,
      quantity: cmd.qty,
      tif: cmd.tif,
      ref: order,
    });
    const rejected = events.find((e): e is Extract<BookEvent, { type: "rejected" }> => e.type === "rejected");
    if (rejected) {
      // Refused by the book before anything traded (post-only, fill-or-kill): the hold is undone
      // and nothing is told (a refusal changes nothing and takes no transfer id).
      this.untrack(order);
      if (order.hold) this.ledger.releaseHold(`void:${order.id}`, order.hold);
      if (rejected.code === "MATCHING_POST_ONLY_WOULD_TRADE") return "CONTRACT_POST_ONLY_WOULD_TRADE";
      return rejected.code === "MATCHING_FOK_NOT_FILLED" ? "CONTRACT_FOK_NOT_FILLED" : "CONTRACT_BAD_ORDER";
    }
    if (pending) out.push(pending);
    let traded = false;
    for (const event of events) {
      if (event.type === "trade") {
        this.settle(event, order, out);
        traded = true;
      } else if (event.type === "cancelled") this.end(event.ref as OpenOrder, event.reason, out);
    }
    if (order.remaining === 0n && this.orders.has(order.id)) this.end(order, "filled", out);
    if (traded && !this.firing) this.runStops([], out);
    // Its hold moved the member's free balance: a cross position's liquidation price with it.
    this.rewatchCross(cmd.memberId);
    return "OK";
  }

  /**
   * A stop order (decision 048): checked as far as it can be now (its numbers, and a close against
   * the position it would reduce), then it waits, holding nothing. Its trigger must not fire at
   * once (equal to the price it watches is refused: it would).
   */
  placeStop(cmd: ContractStopPlace, out: EventSink): ContractCode {
    const { config } = this;
    if (this.orders.has(cmd.stopId) || this.stops.get(cmd.stopId)) return "CONTRACT_DUPLICATE_ID";
    if (cmd.qty < config.minQty || cmd.qty > config.maxQty) return "CONTRACT_QTY";
    if (cmd.type === "limit" && (cmd.price === undefined || cmd.price <= 0n)) return "CONTRACT_BAD_ORDER";
    if (cmd.type === "limit" && cmd.price! % config.tickSize !== 0n) return "CONTRACT_TICK";
    if (cmd.type === "market" && (cmd.tif === "GTC" || cmd.tif === "POST_ONLY")) return "CONTRACT_BAD_ORDER";
    if (cmd.triggerPrice <= 0n || cmd.triggerPrice % config.tickSize !== 0n) return "CONTRACT_TRIGGER_PRICE";
    const kind = stopKindFor(cmd.side, cmd.triggerPrice, this.referenceOf(cmd.triggerBy, cmd.mark));
    if (kind === null) return "CONTRACT_TRIGGER_PRICE";
    if (cmd.action === "close") {
      const held = this.positionsByMember.get(cmd.memberId);
      if (!held || held.side === positionSideOf(cmd.side)) return "CONTRACT_NOTHING_TO_CLOSE";
      if (cmd.qty > held.qty) return "CONTRACT_CLOSE_TOO_MUCH";
    }
    if (this.stops.countOf(cmd.memberId) >= MAX_STOPS_PER_MEMBER) return "CONTRACT_TOO_MANY_STOPS";
    this.waitFor(
      {
        id: cmd.stopId,
        memberId: cmd.memberId,
        side: cmd.side,
        action: cmd.action,
        type: cmd.type,
        price: cmd.type === "limit" ? cmd.price! : null,
        qty: cmd.qty,
        tif: cmd.tif,
        triggerBy: cmd.triggerBy,
        profitPrice: kind === "profit" ? cmd.triggerPrice : null,
        lossPrice: kind === "loss" ? cmd.triggerPrice : null,
      },
      out,
    );
    return "OK";
  }

  /**
   * A position's take profit and stop loss (decision 048): one entry, either trigger or both,
   * closing the whole position at the market when the `triggerBy` price reaches one (the other is
   * dropped). A long's take profit is above the price it watches and its stop loss below; a
   * short's the reverse. A new one replaces the one set before; it goes when the position does.
   */
  setPositionStops(
    memberId: string,
    stopId: string,
    triggerBy: TriggerSource,
    takeProfit: bigint | null,
    stopLoss: bigint | null,
    mark: bigint,
    out: EventSink,
  ): ContractCode {
    const position = this.positionsByMember.get(memberId);
    if (!position) return "CONTRACT_NOTHING_TO_CLOSE";
    if (this.orders.has(stopId) || this.stops.get(stopId)) return "CONTRACT_DUPLICATE_ID";
    if (takeProfit === null && stopLoss === null) return "CONTRACT_BAD_ORDER";
    const side: Side = position.side === "long" ? "sell" : "buy";
    const reference = this.referenceOf(triggerBy, mark);
    for (const [kind, price] of [
      ["profit", takeProfit],
      ["loss", stopLoss],
    ] as const) {
      if (price === null) continue;
      if (price <= 0n || price % this.config.tickSize !== 0n || firesAt(side, kind, price, reference)) return "CONTRACT_TRIGGER_PRICE";
    }
    const before = this.stops.positionStopOf(memberId);
    if (before) this.dropStop(before.id, "replaced", out);
    this.waitFor(
      {
        id: stopId,
        memberId,
        side,
        action: "close",
        type: "market",
        price: null,
        qty: null,
        tif: "IOC",
        triggerBy,
        profitPrice: takeProfit,
        lossPrice: stopLoss,
      },
      out,
    );
    return "OK";
  }

  /** The price a trigger by `source` is compared with now: the mark, or the last trade price (the mark before any trade). */
  private referenceOf(source: TriggerSource, mark: bigint): bigint {
    return source === "last" ? (this.lastPrice ?? mark) : mark;
  }

  private waitFor(stop: WaitingStop, out: EventSink): void {
    this.stops.add(stop);
    out.push({
      type: "contract.stop_placed",
      symbol: this.config.symbol,
      stopId: stop.id,
      memberId: stop.memberId,
      side: stop.side,
      action: stop.action,
      orderType: stop.type,
      tif: stop.tif,
      price: stop.price,
      qty: stop.qty,
      triggerBy: stop.triggerBy,
      profitPrice: stop.profitPrice,
      lossPrice: stop.lossPrice,
    });
  }

  /** A waiting stop taken out without firing; false if it was not waiting. */
  private dropStop(id: string, reason: string, out: EventSink): boolean {
    const stop = this.stops.remove(id);
    if (!stop) return false;
    out.push({
      type: "contract.stop_ended",
      symbol: this.config.symbol,
      stopId: id,
      memberId: stop.memberId,
      status: "cancelled",
      reason,
      firedPrice: null,
      fired: null,
    });
    return true;
  }

  /**
   * Places the stops that fired (`fired`), then those the last price now reaches, until none
   * does: what a fired order trades can fire more. A stop leaves its trigger book before it is
   * placed and never returns, so this ends after at most as many placements as stops waited.
   */
  private runStops(fired: Fired[], out: EventSink): void {
    this.firing = true;
    try {
      let queue = fired;
      for (;;) {
        for (const f of queue) this.trigger(f, out);
        queue = this.lastPrice === null ? [] : this.stops.fire("last", this.lastPrice);
        if (queue.length === 0) break;
      }
    } finally {
      this.firing = false;
    }
  }

  /**
   * One fired stop placed as its order, under its own id and at its member's leverage now; a
   * position's take profit or stop loss first cancels the member's resting closes here and then
   * closes the whole position at the market. A refusal leaves nothing but the stop's end.
   */
  private trigger({ stop, kind, price: firedPrice }: Fired, out: EventSink): void {
    const { symbol } = this.config;
    const fired = stop.qty !== null ? "stop" : kind === "profit" ? "take_profit" : "stop_loss";
    const ended = (status: "triggered" | "failed", reason: string | null) =>
      out.push({ type: "contract.stop_ended", symbol, stopId: stop.id, memberId: stop.memberId, status, reason, firedPrice, fired });
    const mark = this.lastMark!;
    let qty = stop.qty;
    if (qty === null) {
      const position = this.positionsByMember.get(stop.memberId);
      if (!position) return void ended("failed", "CONTRACT_NOTHING_TO_CLOSE");
      for (const order of [...this.ordersOf(stop.memberId)]) if (order.action === "close") this.cancel(stop.memberId, order.id, out, "tp_sl");
      qty = position.qty;
    }
    const leverage =
      stop.action === "open" ? this.leverageOf(stop.memberId) : (this.positionsByMember.get(stop.memberId)?.leverage ?? this.leverageOf(stop.memberId));
    const events: ContractEvent[] = [];
    const code = this.place(
      {
        orderId: stop.id,
        memberId: stop.memberId,
        side: stop.side,
        action: stop.action,
        type: stop.type,
        qty,
        tif: stop.tif,
        leverage,
        mark,
        ...(stop.price !== null && { price: stop.price }),
        ...(stop.qty === null && { wholePosition: true }),
      },
      events,
    );
    if (code !== "OK") return void ended("failed", code);
    ended("triggered", null);
    out.push(
      {
        type: "contract.placed",
        symbol,
        orderId: stop.id,
        memberId: stop.memberId,
        side: stop.side,
        action: stop.action,
        orderType: stop.type,
        tif: stop.tif,
        price: stop.price,
        quantity: qty,
        leverage,
      },
      ...events,
    );
  }

  /**
   * A member's leverage in this contract (`contract/updateLeverageRadio`): kept for their next
   * orders, and their position's if they hold one, within its risk band (no position: the first
   * band's). Refused while their opening orders wait (each holds at its own leverage). A lower
   * leverage needs more margin, moved from the free balance (refused when it is not there); a
   * higher one leaves the margin as it is (`changeMargin` takes the excess back).
   */
  setLeverage(memberId: string, leverage: number, out: EventSink): ContractCode {
    if (!Number.isInteger(leverage) || leverage < 1) return "CONTRACT_LEVERAGE";
    if (this.openingQty(memberId, "buy") + this.openingQty(memberId, "sell") > 0n) return "CONTRACT_ORDERS_OPEN";
    const position = this.positionsByMember.get(memberId);
    if (tierOf(this.config.tiers, position?.cost ?? 0n).maxLeverage < leverage) return "CONTRACT_LEVERAGE_BAND";
    if (position) {
      const required = initialMargin(position.cost, leverage);
      if (required > position.margin) {
        const more = required - position.margin;
        if (availableIn(this.contractAccount(memberId)) < more) return "CONTRACT_INSUFFICIENT_MARGIN";
        this.move(this.contractAccount(memberId), this.marginAccount(memberId), more, out);
        position.margin += more;
      }
      position.leverage = leverage;
      this.watch(position);
      this.tellPosition(position, 0n, out);
    }
    this.chooseLeverage(memberId, leverage);
    out.push({ type: "contract.leverage", symbol: this.config.symbol, memberId, leverage });
    return "OK";
  }

  private chooseLeverage(memberId: string, leverage: number): void {
    if (leverage === this.config.defaultLeverage) this.leverages.delete(memberId);
    else this.leverages.set(memberId, leverage);
  }

  /**
   * Adds margin to a position from the free balance, or takes some back (`contract/updateBond`):
   * never below the initial margin of its cost at its leverage, nor to where the mark would
   * liquidate it. The liquidation price moves with it.
   */
  changeMargin(memberId: string, change: bigint, mark: bigint, out: EventSink): ContractCode {
    const position = this.positionsByMember.get(memberId);
    if (!position) return "CONTRACT_NOTHING_TO_CLOSE";
    // A cross position's margin is the member's free balance already: there is none to add or take.
    if (this.crossMembers.has(memberId)) return "CONTRACT_MARGIN_MODE";
    if (change === 0n) return "CONTRACT_BAD_ORDER";
    if (change > 0n) {
      if (availableIn(this.contractAccount(memberId)) < change) return "CONTRACT_INSUFFICIENT_MARGIN";
      this.move(this.contractAccount(memberId), this.marginAccount(memberId), change, out);
    } else {
      const left = position.margin + change;
      if (left < initialMargin(position.cost, position.leverage)) return "CONTRACT_MARGIN_BELOW_INITIAL";
      const value = contractValue(this.config.spec, position.qty, mark);
      if (left + unrealisedPnl(this.config.spec, position, mark) <= maintenanceMargin(this.config.tiers, value)) return "CONTRACT_MARGIN_BELOW_INITIAL";
      this.move(this.marginAccount(memberId), this.contractAccount(memberId), -change, out);
    }
    position.margin += change;
    this.watch(position);
    this.tellPosition(position, 0n, out);
    return "OK";
  }

  /** Closes a member's position at the market (one-key close): their orders here cancelled, then an IOC close within the band. */
  closeAll(memberId: string, orderId: string, mark: bigint, out: EventSink): ContractCode {
    const position = this.positionsByMember.get(memberId);
    if (!position) return "CONTRACT_NOTHING_TO_CLOSE";
    // Checked before anything is cancelled: a close holds nothing, so only its id can refuse it.
    if (this.orders.has(orderId) || this.stops.get(orderId)) return "CONTRACT_DUPLICATE_ID";
    this.dropStopsOf(memberId, "close_all", out);
    for (const order of [...this.ordersOf(memberId)]) this.cancel(memberId, order.id, out, "close_all");
    const side: Side = position.side === "long" ? "sell" : "buy";
    // Past the checks above nothing refuses it: its member's orders are gone (so nothing else closes),
    // a close holds nothing, and the whole position passes the order limits.
    const code = this.place(
      { orderId, memberId, side, action: "close", type: "market", qty: position.qty, tif: "IOC", leverage: position.leverage, mark, wholePosition: true },
      out,
    );
    if (code !== "OK") throw new Error(`${this.config.symbol}: the one-key close of ${memberId} was refused (${code}) after their orders were cancelled`);
    return code;
  }

  /** A member's waiting stops here, all taken out (a one-key close, a liquidation). */
  private dropStopsOf(memberId: string, reason: string, out: EventSink): void {
    for (const stop of [...this.stops.of(memberId)]) this.dropStop(stop.id, reason, out);
  }

  /** A member's position as it stands now (none: an empty one), after a change outside a fill (a take-over, a deleveraging). */
  private tellPositionOf(memberId: string, realised: bigint, out: EventSink): void {
    const now = this.positionsByMember.get(memberId);
    out.push({
      type: "contract.position",
      symbol: this.config.symbol,
      memberId,
      side: now?.side ?? null,
      qty: now?.qty ?? 0n,
      cost: now?.cost ?? 0n,
      margin: now?.margin ?? 0n,
      realised,
    });
  }

  private tellPosition(position: Position, realised: bigint, out: EventSink): void {
    this.tellPositionOf(position.memberId, realised, out);
  }

  /**
   * Cancels a member's open order: what it held goes back. `reason`: who did (the member; or the
   * engine, for a one-key close, a liquidation or a deleveraging that left it too big).
   */
  cancel(memberId: string, orderId: string, out: EventSink, reason: "user" | "close_all" | "liquidation" | "deleveraged" | "tp_sl" = "user"): ContractCode {
    if (this.stops.get(orderId)?.memberId === memberId) return this.dropStop(orderId, reason, out) ? "OK" : "CONTRACT_UNKNOWN_ORDER";
    const order = this.orders.get(orderId);
    if (!order || order.memberId !== memberId) return "CONTRACT_UNKNOWN_ORDER";
    for (const event of this.book.cancel(orderId, memberId)) if (event.type === "cancelled") this.end(order, reason, out);
    if (reason === "user") this.rewatchCross(memberId);
    return "OK";
  }

  /** The worst price a market order may trade at, and the furthest a limit may be placed: the mark ± the band, on a tick. */
  private bandEdge(side: Side, mark: bigint): bigint {
    const offset = (mark * this.config.priceBand) / RATE_ONE;
    const tick = this.config.tickSize;
    return side === "buy" ? ((mark + offset) / tick) * tick : divCeil(mark - offset, tick) * tick;
  }

  /** Contracts a member's open orders on a side would open (for the risk band) or close (reduce-only). */
  private openingQty(memberId: string, side: Side): bigint {
    return this.ordersByMember.get(memberId)?.open[side] ?? 0n;
  }

  private closingQty(memberId: string, side: Side): bigint {
    return this.ordersByMember.get(memberId)?.close[side] ?? 0n;
  }

  private ordersOf(memberId: string): Iterable<OpenOrder> {
    return this.ordersByMember.get(memberId)?.orders ?? [];
  }

  /** An order opens: kept by id and in its member's tally. */
  private track(order: OpenOrder): void {
    this.orders.set(order.id, order);
    let mine = this.ordersByMember.get(order.memberId);
    if (!mine) this.ordersByMember.set(order.memberId, (mine = { orders: new Set(), open: { buy: 0n, sell: 0n }, close: { buy: 0n, sell: 0n } }));
    mine.orders.add(order);
    mine[order.action][order.side] += order.remaining;
  }

  /** Contracts of an order filled: its remaining and its member's tally shrink together. */
  private filled(order: OpenOrder, qty: bigint): void {
    order.remaining -= qty;
    const mine = this.ordersByMember.get(order.memberId);
    if (mine?.orders.has(order)) mine[order.action][order.side] -= qty;
  }

  /** An order is gone (ended or refused); false when it was not open. */
  private untrack(order: OpenOrder): boolean {
    if (!this.orders.delete(order.id)) return false;
    const mine = this.ordersByMember.get(order.memberId)!;
    mine.orders.delete(order);
    mine[order.action][order.side] -= order.remaining;
    if (mine.orders.size === 0) this.ordersByMember.delete(order.memberId);
    return true;
  }

  /** One trade: both sides' fees and positions. */
  private settle(trade: Extract<BookEvent, { type: "trade" }>, taker: OpenOrder, out: EventSink): void {
    const maker = trade.makerRef as OpenOrder;
    const event: ContractTrade = {
      type: "contract.trade",
      symbol: this.config.symbol,
      takerOrderId: taker.id,
      makerOrderId: maker.id,
      takerSide: trade.takerSide,
      price: trade.price,
      qty: trade.quantity,
      taker: { memberId: taker.memberId, action: taker.action, fee: 0n, realised: 0n },
      maker: { memberId: maker.memberId, action: maker.action, fee: 0n, realised: 0n },
    };
    // The trade first, its fees and profit filled in as each side settles (its transfers follow it).
    out.push(event);
    this.lastPrice = trade.price;
    this.fill(maker, trade.price, trade.quantity, this.config.makerFeeBps, out, event.maker);
    this.fill(taker, trade.price, trade.quantity, this.config.takerFeeBps, out, event.taker);
    if (trade.makerFilled) this.end(maker, "filled", out);
  }

  /** One side of a trade: its fee, then its position opened, added to or reduced. */
  private fill(order: OpenOrder, price: bigint, qty: bigint, feeBps: number, out: EventSink, told: TradeSide): void {
    const { spec } = this.config;
    const value = contractValue(spec, qty, price);
    const fee = order.liquidation ? 0n : divCeil(value * BigInt(feeBps), BPS);
    // An opening fill pays its fee from its hold first; a close after it freed its margin and profit.
    if (order.action === "open") told.fee = this.payFee(order, fee, out);
    // The margin share of these contracts: what the order held for them (the last fill takes the rest).
    let margin = qty === order.remaining ? order.marginLeft : (order.marginLeft * qty) / order.remaining;
    order.marginLeft -= margin;
    this.filled(order, qty);
    const side = positionSideOf(order.side);
    const position = this.positionsByMember.get(order.memberId);
    let realised = 0n;
    if (order.action === "close") {
      // Closes never exceed the position (checked at placement; only closes shrink it).
      if (!position || position.side === side || qty > position.qty) throw new Error(`${this.config.symbol} close ${order.id} exceeds its position`);
      realised = this.reduce(position, qty, value, out);
      told.realised = realised;
      told.fee = this.payFee(order, fee, out);
    } else {
      if (position && position.side !== side) throw new Error(`${this.config.symbol} open ${order.id} meets an opposite position`);
      // Opens or adds: the margin the order held for these contracts moves to the position.
      const opened: Position = position ?? { memberId: order.memberId, side, qty: 0n, cost: 0n, margin: 0n, leverage: order.leverage, liquidation: null };
      // The position takes the initial margin of what it bought at the fill's price, and what that
      // price already loses at the mark (so it never starts below its initial margin); the rest of
      // what the order held for these contracts (a market order holds at the band's edge) stays in
      // its hold and goes back when the order ends.
      const atMark = contractValue(spec, qty, this.lastMark ?? price);
      const lossAtMark = -pnlOfValue(spec, side, value, atMark);
      const wanted = initialMargin(value, order.leverage) + (lossAtMark > 0n ? lossAtMark : 0n);
      if (margin > wanted) margin = wanted;
      if (margin > 0n) this.pay(order, margin, this.marginAccount(order.memberId), out);
      opened.qty += qty;
      if (side === "long") this.longContracts += qty;
      opened.cost += value;
      opened.margin += margin;
      this.positionsByMember.set(order.memberId, opened);
    }
    const changed = this.positionsByMember.get(order.memberId);
    if (changed) this.watch(changed);
    this.tellPositionOf(order.memberId, realised, out);
  }

  /**
   * Takes `closing` contracts off a position whose close is worth `value`: its share of the margin
   * back to the contract account, then the realised profit from (or loss to) the clearing account.
   * A loss beyond the margin given back comes from the member's free balance. Answers the profit.
   */
  private reduce(position: Position, closing: bigint, value: bigint, out: EventSink): bigint {
    const share = costShare(position, closing);
    const marginBack = closing === position.qty ? position.margin : (position.margin * closing) / position.qty;
    const realised = pnlOfValue(this.config.spec, position.side, share, value);
    position.qty -= closing;
    if (position.side === "long") this.longContracts -= closing;
    position.cost -= share;
    position.margin -= marginBack;
    // The insurance fund's own position settles with the fund itself.
    const member = position.memberId === INSURANCE_OWNER ? this.insurance : this.contractAccount(position.memberId);
    if (marginBack > 0n) this.move(this.marginAccount(position.memberId), member, marginBack, out);
    if (realised > 0n) this.move(this.clearing, member, realised, out);
    if (realised < 0n) this.coverLoss(position.memberId, -realised, out);
    if (position.qty === 0n) {
      this.positionsByMember.delete(position.memberId);
      this.unwatch(position);
      const stops = this.stops.positionStopOf(position.memberId);
      if (stops) this.dropStop(stops.id, "position_closed", out);
    }
    return realised;
  }

  // --- Liquidation (decision 045): positions ordered by where the mark liquidates them, so a
  // mark tick looks only at those it reached, not at every position.

  /** Longs by liquidation price, lowest first (the mark falling reaches the last first); shorts highest first. */
  private readonly longWatch: Position[] = [];
  private readonly shortWatch: Position[] = [];

  private watchOf(position: Position): Position[] {
    return position.side === "long" ? this.longWatch : this.shortWatch;
  }

  /** (Re)places a position in its watch list at its liquidation price. */
  private watch(position: Position): void {
    this.unwatch(position);
    if (position.memberId === INSURANCE_OWNER) return;
    const price = this.liquidationOf(position);
    position.liquidation = price;
    if (price === null) return;
    const list = this.watchOf(position);
    list.splice(this.watchSlot(list, position), 0, position);
  }

  /**
   * Where a position at its liquidation price goes in its (sorted) watch list: the first index of
   * those it comes before. Sorted so the next to be reached is last: longs ascending, shorts
   * descending; at one price the smallest member id is reached first, so the order never depends
   * on when each was last re-watched (a restore re-watches in another order).
   */
  private watchSlot(list: readonly Position[], position: Position): number {
    const { memberId } = position;
    const price = position.liquidation!;
    const before =
      position.side === "long"
        ? (p: Position) => p.liquidation! > price || (p.liquidation === price && p.memberId < memberId)
        : (p: Position) => p.liquidation! < price || (p.liquidation === price && p.memberId < memberId);
    let low = 0;
    let high = list.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (before(list[mid]!)) high = mid;
      else low = mid + 1;
    }
    return low;
  }

  /**
   * Where the mark liquidates a position. The band is the position's value at that price, which
   * the price itself decides: solved at the entry's band, then again at the band of the price found,
   * keeping the earlier trigger, until it settles (a band at most per step). A margin of nothing
   * left (after funding) gives a price the next mark reaches.
   */
  private liquidationOf(position: Position): bigint | null {
    const { spec, tiers } = this.config;
    let band = averageEntry(spec, position);
    let best: bigint | null = null;
    for (let step = 0; step <= tiers.length; step++) {
      const price = liquidationPrice(spec, tiers, position, this.backing(position), band);
      if (price === null) return best;
      const earlier = best === null || (position.side === "long" ? price > best : price < best);
      if (!earlier) break;
      best = price;
      band = price;
    }
    return best;
  }

  private unwatch(position: Position): void {
    if (position.liquidation === null) return;
    const list = this.watchOf(position);
    // Found by the order it was placed in (just before its slot), not by a scan.
    const slot = this.watchSlot(list, position) - 1;
    const at = list[slot] === position ? slot : list.lastIndexOf(position);
    if (at >= 0) list.splice(at, 1);
    position.liquidation = null;
  }

  /**
   * A new mark: every position it reached whose margin and profit at the mark are at most its
   * maintenance margin is liquidated (the member's orders here cancelled, the position closed in
   * the book at its bankruptcy price or better, what the book cannot take taken over by the
   * insurance fund at that price, what its margin keeps to the insurance fund). Answers the
   * members liquidated.
   */
  markTick(mark: bigint, out: EventSink): string[] {
    this.lastMark = mark;
    const done: string[] = [];
    // Stops first: a stop loss the mark reached closes before the liquidation it may spare. A
    // liquidation's close trades, and the last price it leaves can fire stops by last price, whose
    // orders can change positions: the pass runs again until no stop fires.
    let fired = this.stops.fire("mark", mark);
    for (;;) {
      if (fired.length > 0) this.runStops(fired, out);
      done.push(...this.liquidationPass(mark, out));
      fired = this.lastPrice === null ? [] : this.stops.fire("last", this.lastPrice);
      if (fired.length === 0) return done;
    }
  }

  /** Liquidates every watched position the mark reached whose margin and profit at it are at most its maintenance margin. */
  private liquidationPass(mark: bigint, out: EventSink): string[] {
    const done: string[] = [];
    const spared: Position[] = [];
    for (const list of [this.longWatch, this.shortWatch]) {
      for (;;) {
        const next = list[list.length - 1];
        if (!next) break;
        const reached = next.side === "long" ? mark <= next.liquidation! : mark >= next.liquidation!;
        if (!reached) break;
        list.pop();
        next.liquidation = null;
        const value = contractValue(this.config.spec, next.qty, mark);
        // The exact test at the mark (the price was rounded toward it, and its band was the entry's).
        if (this.backing(next) + unrealisedPnl(this.config.spec, next, mark) <= maintenanceMargin(this.config.tiers, value)) {
          if (this.liquidate(next, mark, out)) done.push(next.memberId);
        } else spared.push(next);
      }
    }
    // Re-watched unless this tick closed or changed them meanwhile (another liquidation filled their close).
    for (const position of spared) if (this.positionsByMember.get(position.memberId) === position) this.watch(position);
    return done;
  }

  /** Liquidates a position the mark reached; false when, in cross margin, cancelling its member's orders freed enough to spare it. */
  private liquidate(position: Position, mark: bigint, out: EventSink): boolean {
    const { memberId, side, qty } = position;
    this.dropStopsOf(memberId, "liquidation", out);
    for (const order of [...this.ordersOf(memberId)]) this.cancel(memberId, order.id, out, "liquidation");
    if (this.crossMembers.has(memberId)) {
      const value = contractValue(this.config.spec, qty, mark);
      if (this.backing(position) + unrealisedPnl(this.config.spec, position, mark) > maintenanceMargin(this.config.tiers, value)) {
        this.watch(position);
        return false;
      }
    }
    // What backs it (in cross margin the free balance too) is what it can lose: the bankruptcy price is where that is gone.
    const bankruptcy = bankruptcyPrice(this.config.spec, position, this.backing(position)) ?? (side === "long" ? this.config.tickSize : mark);
    // On the tick: a long sells at the bankruptcy price or above, a short buys at it or below.
    const tick = this.config.tickSize;
    const limit = side === "long" ? divCeil(bankruptcy, tick) * tick : (bankruptcy / tick) * tick;
    const member = this.contractAccount(memberId);
    const freeBefore = member.posted;
    const order: OpenOrder = {
      id: `liq:${memberId}:${this.nextId()}`,
      memberId,
      side: side === "long" ? "sell" : "buy",
      action: "close",
      holdPrice: limit,
      leverage: position.leverage,
      remaining: qty,
      hold: null,
      marginLeft: 0n,
      feeLeft: 0n,
      liquidation: true,
    };
    this.track(order);
    const events = this.book.place({ id: order.id, memberId, side: order.side, type: "limit", price: limit, quantity: qty, tif: "IOC", ref: order });
    for (const event of events) if (event.type === "trade") this.settle(event, order, out);
    this.untrack(order);
    const filled = qty - order.remaining;
    let takenOver = 0n;
    const left = this.positionsByMember.get(memberId);
    if (left) {
      // The book could not take it all: the insurance fund takes the rest over at the bankruptcy price.
      takenOver = left.qty;
      const fund = this.positionsByMember.get(INSURANCE_OWNER);
      // The fund holds the other side already: the take-over closes that much of it instead. The
      // member's side is valued in the same pieces as the fund's (inverse values round per piece).
      const closing = fund && fund.side !== side ? (fund.qty < takenOver ? fund.qty : takenOver) : 0n;
      let realised = 0n;
      if (closing > 0n) {
        const value = contractValue(this.config.spec, closing, limit);
        realised += this.reduce(left, closing, value, out);
        this.reduce(fund!, closing, value, out);
      }
      const rest = takenOver - closing;
      if (rest > 0n) {
        realised += this.reduce(left, rest, contractValue(this.config.spec, rest, limit), out);
        this.openForFund(side, rest, limit);
      }
      // The member's position is gone (taken over); the fund's changed: both as they stand now.
      this.tellPositionOf(memberId, realised, out);
      this.tellPositionOf(INSURANCE_OWNER, 0n, out);
    }
    // What the margin kept after the loss is the insurance fund's (an isolated position's margin is all it risks).
    const kept = member.posted - freeBefore;
    if (kept > 0n) this.move(member, this.insurance, kept, out);
    out.push({
      type: "contract.liquidated",
      symbol: this.config.symbol,
      memberId,
      side,
      qty,
      mark,
      bankruptcy: limit,
      filled,
      takenOver,
      toInsurance: kept > 0n ? kept : 0n,
    });
    return true;
  }

  /**
   * Auto-deleveraging: the insurance fund's taken-over position is closed at the mark against the
   * opposite positions ranked by profit at the mark over their margin (the most profitable and
   * most leveraged first), each member's position reduced by what it takes, realising its profit
   * at the mark. Their resting closes shrink with it (those that no longer fit are cancelled).
   * Answers the members deleveraged.
   */
  deleverageFund(mark: bigint, out: EventSink): string[] {
    const fund = this.positionsByMember.get(INSURANCE_OWNER);
    if (!fund) return [];
    const { spec } = this.config;
    // At the price the fund took it over at (the liquidated positions' bankruptcy price): the fund
    // neither gains nor loses by it, the ranked members realise their profit at that price.
    const price = averageEntry(spec, fund);
    const ranked = [...this.positionsByMember.values()]
      .filter((p) => p.memberId !== INSURANCE_OWNER && p.side !== fund.side)
      // Profit over what backs it (a cross position's free balance too): the most leveraged winners first.
      .map((p) => {
        const backing = this.backing(p);
        return { p, score: (unrealisedPnl(spec, p, mark) * RATE_ONE) / (backing > 0n ? backing : 1n) };
      })
      .sort((a, b) => (a.score === b.score ? (a.p.memberId < b.p.memberId ? -1 : 1) : a.score > b.score ? -1 : 1));
    const touched: string[] = [];
    for (const { p } of ranked) {
      const left = this.positionsByMember.get(INSURANCE_OWNER);
      if (!left) break;
      const qty = p.qty < left.qty ? p.qty : left.qty;
      const value = contractValue(spec, qty, price);
      this.reduce(left, qty, value, out);
      const realised = this.reduce(p, qty, value, out);
      touched.push(p.memberId);
      this.fitCloses(p.memberId, out);
      const now = this.positionsByMember.get(p.memberId);
      if (now) this.watch(now);
      out.push({ type: "contract.deleveraged", symbol: this.config.symbol, memberId: p.memberId, qty, price });
      this.tellPositionOf(p.memberId, realised, out);
    }
    if (touched.length > 0) this.tellPositionOf(INSURANCE_OWNER, 0n, out);
    return touched;
  }

  /** A member's resting closes cancelled, newest first, until they fit the position again. */
  private fitCloses(memberId: string, out: EventSink): void {
    const position = this.positionsByMember.get(memberId);
    const closing = [...this.ordersOf(memberId)].filter((o) => o.action === "close").reverse();
    let total = closing.reduce((sum, o) => sum + o.remaining, 0n);
    for (const order of closing) {
      if (total <= (position?.qty ?? 0n)) break;
      this.cancel(memberId, order.id, out, "deleveraged");
      total -= order.remaining;
    }
  }

  /** The insurance fund's position grows by contracts taken over at `price` (it holds no margin: it is the fund). */
  private openForFund(side: PositionSide, qty: bigint, price: bigint): void {
    const fund = this.positionsByMember.get(INSURANCE_OWNER) ?? {
      memberId: INSURANCE_OWNER,
      side,
      qty: 0n,
      cost: 0n,
      margin: 0n,
      leverage: 1,
      liquidation: null,
    };
    fund.qty += qty;
    if (side === "long") this.longContracts += qty;
    fund.cost += contractValue(this.config.spec, qty, price);
    this.positionsByMember.set(INSURANCE_OWNER, fund);
  }

  /**
   * Funding at a funding time (decision 045): each position pays or receives its value at the
   * mark × the rate, from and to its margin; a cross position pays from its member's free balance
   * first (decision 049). A payer's part is rounded up, a receiver's down; the insurance fund is
   * between them and keeps the rounding; a payer who cannot pay it all pays what it has, the fund
   * the rest. The fund's own position neither pays nor receives.
   */
  settleFunding(mark: bigint, rate: bigint, out: EventSink): void {
    if (rate === 0n) return;
    const members = [...this.positionsByMember.keys()].filter((m) => m !== INSURANCE_OWNER).sort();
    // Payers first, so the fund holds what receivers are paid.
    const payments = members.map((memberId) => {
      const position = this.positionsByMember.get(memberId)!;
      return { position, amount: fundingPayment(this.config.spec, position, mark, rate) };
    });
    for (const { position, amount } of payments.filter((p) => p.amount < 0n)) {
      const due = -amount;
      // A cross position pays from the free balance that backs it first (decision 049), then from its margin.
      let fromFree = 0n;
      if (this.crossMembers.has(position.memberId)) {
        const free = availableIn(this.contractAccount(position.memberId));
        fromFree = free <= 0n ? 0n : due < free ? due : free;
        if (fromFree > 0n) this.move(this.contractAccount(position.memberId), this.insurance, fromFree, out);
      }
      const rest = due - fromFree;
      const fromMargin = rest < position.margin ? rest : position.margin;
      if (fromMargin > 0n) this.move(this.marginAccount(position.memberId), this.insurance, fromMargin, out);
      position.margin -= fromMargin;
      const paid = fromFree + fromMargin;
      out.push({ type: "contract.funding", symbol: this.config.symbol, memberId: position.memberId, rate, mark, amount: -paid });
      this.watch(position);
    }
    for (const { position, amount } of payments.filter((p) => p.amount > 0n)) {
      const available = availableIn(this.insurance);
      const paid = amount < available ? amount : available;
      if (paid > 0n) this.move(this.insurance, this.marginAccount(position.memberId), paid, out);
      position.margin += paid;
      out.push({ type: "contract.funding", symbol: this.config.symbol, memberId: position.memberId, rate, mark, amount: paid });
      this.watch(position);
    }
  }

  /** Losses nobody covered yet (the clearing account is short of them). */
  get uncovered(): bigint {
    return this.deficit;
  }

  /**
   * The deficit paid from the insurance fund as far as it can (decision 048): at each mark tick,
   * so what the fund receives later (liquidations' leftover margin, funding's rounding, operators'
   * top-ups from the fees) settles what an earlier loss left uncovered. Answers what it paid.
   */
  coverDeficit(out: EventSink): bigint {
    if (this.deficit === 0n) return 0n;
    const available = availableIn(this.insurance);
    const part = available < this.deficit ? available : this.deficit;
    if (part <= 0n) return 0n;
    this.move(this.insurance, this.clearing, part, out);
    this.deficit -= part;
    out.push({ type: "contract.deficit_covered", symbol: this.config.symbol, amount: part });
    return part;
  }

  /**
   * A realised loss to the clearing account: from the member's free balance, then the insurance
   * fund; what neither covers is the market's deficit, which the fund pays as soon as it has the
   * money (`coverDeficit`, each mark tick).
   */
  private coverLoss(memberId: string, loss: bigint, out: EventSink): void {
    let left = loss;
    const payers = memberId === INSURANCE_OWNER ? [this.insurance] : [this.contractAccount(memberId), this.insurance];
    for (const from of payers) {
      const available = availableIn(from);
      const part = available < left ? available : left;
      if (part > 0n) this.move(from, this.clearing, part, out);
      left -= part;
      if (left === 0n) return;
    }
    this.deficit += left;
    out.push({ type: "contract.deficit", symbol: this.config.symbol, memberId, amount: left });
  }

  /**
   * A fill's fee: from what the order held for fees; a fill at a better price than the order's
   * (a larger value) may cost a little more, taken from the free balance; what that cannot give
   * is waived (the fee account's loss, never the member's negative balance).
   */
  private payFee(order: OpenOrder, fee: bigint, out: EventSink): bigint {
    const fromHold = fee < order.feeLeft ? fee : order.feeLeft;
    if (fromHold > 0n) this.pay(order, fromHold, this.fees, out);
    order.feeLeft -= fromHold;
    const rest = fee - fromHold;
    if (rest === 0n) return fee;
    const account = this.contractAccount(order.memberId);
    const available = availableIn(account);
    const part = available < rest ? available : rest;
    if (part > 0n) this.move(account, this.fees, part, out);
    return fromHold + part;
  }

  /** Pays from an order's hold (its fee, its margin). */
  private pay(order: OpenOrder, amount: bigint, to: LedgerAccount, out: EventSink): void {
    const paid = this.ledger.payFromHold(this.nextId(), order.hold!, amount, to);
    if (typeof paid === "string") throw new Error(`${this.config.symbol} order ${order.id}: ${paid} paying ${amount}`);
    out.push(paid);
  }

  private move(from: LedgerAccount, to: LedgerAccount, amount: bigint, out: EventSink): void {
    const moved = this.ledger.moveBetween(this.nextId(), from, to, amount);
    if (typeof moved === "string") throw new Error(`${this.config.symbol}: ${moved} moving ${amount} from ${from.id}`);
    out.push(moved);
  }

  /** An order's end: what its hold has left goes back. */
  private end(order: OpenOrder, reason: string, out: EventSink): void {
    if (!this.untrack(order)) return;
    if (order.hold && order.hold.remaining > 0n) out.push(this.ledger.releaseHold(this.nextId(), order.hold));
    out.push({ type: "contract.order_ended", symbol: this.config.symbol, orderId: order.id, memberId: order.memberId, remaining: order.remaining, reason });
  }

  /**
   * The market's own checks (`alone`: the only contract on its settlement asset; otherwise the
   * shared accounts are the core's to check): each member's margin account holds exactly their positions' margins;
   * the clearing account is minus the open positions' profit and loss at cost (linear: shorts'
   * costs − longs'; inverse: longs' − shorts'), as decision 045 derives; longs and shorts hold the
   * same number of contracts. Answers the broken ones (this market alone on its settlement asset).
   */
  checkInvariants(alone = true): string[] {
    const problems: string[] = [];
    const margins = new Map<string, bigint>();
    let longs = 0n;
    let shorts = 0n;
    for (const p of this.positionsByMember.values()) {
      margins.set(p.memberId, (margins.get(p.memberId) ?? 0n) + p.margin);
      if (p.side === "long") longs += p.qty;
      else shorts += p.qty;
      if (p.qty <= 0n) problems.push(`${p.memberId}: an empty position is kept`);
    }
    // A member's margin account of an asset holds their positions' margins in every contract settling in it.
    if (alone)
      for (const [memberId, margin] of margins) {
        const posted = this.marginAccount(memberId).posted;
        if (posted !== margin) problems.push(`${memberId}: margin account ${posted}, positions' margins ${margin}`);
      }
    if (longs !== shorts) problems.push(`longs hold ${longs} contracts, shorts ${shorts}`);
    problems.push(...this.stops.checkInvariants({ mark: this.lastMark, last: this.lastPrice }));
    for (const stop of this.stops.all()) {
      const held = this.positionsByMember.get(stop.memberId);
      if (stop.qty === null && !held) problems.push(`${stop.id}: a take profit and stop loss outlived its position`);
    }
    if (longs !== this.longContracts) problems.push(`open interest kept as ${this.longContracts}, positions hold ${longs}`);
    for (const [memberId, mine] of this.ordersByMember) {
      const sums = { open: { buy: 0n, sell: 0n }, close: { buy: 0n, sell: 0n } };
      for (const o of mine.orders) sums[o.action][o.side] += o.remaining;
      for (const action of ["open", "close"] as const)
        for (const side of ["buy", "sell"] as const)
          if (sums[action][side] !== mine[action][side])
            problems.push(`${memberId}: ${action} ${side} tally ${mine[action][side]}, orders ${sums[action][side]}`);
    }
    // Several contracts settling in one asset share its clearing account (ExchangeCore checks their sum).
    if (alone) {
      const expected = this.clearingClaim();
      const clearing = this.clearing.posted;
      if (clearing !== expected) problems.push(`clearing ${clearing}, positions and deficit say ${expected}`);
    }
    return problems;
  }

  /**
   * What this market's positions put in the clearing account (decision 045): shorts' costs −
   * longs' (linear; the reverse for inverse), less the deficit nobody covered.
   */
  clearingClaim(): bigint {
    let longCost = 0n;
    let shortCost = 0n;
    for (const p of this.positionsByMember.values()) {
      if (p.side === "long") longCost += p.cost;
      else shortCost += p.cost;
    }
    return (this.config.spec.kind === "linear" ? shortCost - longCost : longCost - shortCost) - this.deficit;
  }

  /** The market's state as plain values (the core's snapshot; the ledger keeps the holds and balances). */
  snapshot(): ContractMarketState {
    const orders: ContractMarketState["orders"] = [];
    for (const o of this.orders.values()) {
      const resting = this.book.order(o.id);
      if (!resting) continue;
      orders.push({
        id: o.id,
        memberId: o.memberId,
        side: o.side,
        action: o.action,
        price: resting.price.toString(),
        holdPrice: o.holdPrice.toString(),
        leverage: o.leverage,
        remaining: o.remaining.toString(),
        marginLeft: o.marginLeft.toString(),
        feeLeft: o.feeLeft.toString(),
      });
    }
    const positions = [...this.positionsByMember.values()].map((p) => ({
      memberId: p.memberId,
      side: p.side,
      qty: p.qty.toString(),
      cost: p.cost.toString(),
      margin: p.margin.toString(),
      leverage: p.leverage,
    }));
    const leverages = [...this.leverages].sort(([a], [b]) => (a < b ? -1 : 1));
    return {
      symbol: this.config.symbol,
      deficit: this.deficit.toString(),
      leverages,
      positions,
      orders,
      last: this.lastPrice?.toString() ?? null,
      stops: this.stops.snapshot(),
      cross: [...this.crossMembers].sort(),
    };
  }

  /** Takes a snapshot back into an empty market, after its ledger's holds and balances were restored. Orders rest in time order as listed. */
  restore(state: ContractMarketState): void {
    if (this.orders.size > 0 || this.positionsByMember.size > 0 || this.stops.size > 0) throw new Error(`${this.config.symbol}: restore into a market in use`);
    this.deficit = BigInt(state.deficit);
    this.lastPrice = state.last ? BigInt(state.last) : null;
    this.stops.restore(state.stops ?? []);
    for (const memberId of state.cross ?? []) this.crossMembers.add(memberId);
    for (const [memberId, leverage] of state.leverages) this.leverages.set(memberId, leverage);
    for (const p of state.positions) {
      const position: Position = {
        memberId: p.memberId,
        side: p.side,
        qty: BigInt(p.qty),
        cost: BigInt(p.cost),
        margin: BigInt(p.margin),
        leverage: p.leverage,
        liquidation: null,
      };
      this.positionsByMember.set(p.memberId, position);
      if (position.side === "long") this.longContracts += position.qty;
      this.watch(position);
    }
    for (const o of state.orders) {
      const order: OpenOrder = {
        id: o.id,
        memberId: o.memberId,
        side: o.side,
        action: o.action,
        holdPrice: BigInt(o.holdPrice),
        leverage: o.leverage,
        remaining: BigInt(o.remaining),
        hold: this.ledger.findHold(`hold:${o.id}`) ?? null,
        marginLeft: BigInt(o.marginLeft),
        feeLeft: BigInt(o.feeLeft),
      };
      this.track(order);
      this.book.restoreResting(o.id, o.memberId, o.side, BigInt(o.price), order.remaining, order);
    }
  }

  stateHash(): string {
    const hash = createHash("sha256").update(this.book.stateHash());
    const members = [...this.positionsByMember.keys()].sort();
    for (const m of members) {
      const p = this.positionsByMember.get(m)!;
      hash.update(`${m}:${p.side}:${p.qty}:${p.cost}:${p.margin}:${p.leverage};`);
    }
    hash.update(`deficit:${this.deficit};last:${this.lastPrice ?? "-"};`);
    hash.update(this.stops.digest());
    hash.update(`cross:${[...this.crossMembers].sort().join(",")};`);
    for (const [memberId, leverage] of [...this.leverages].sort(([a], [b]) => (a < b ? -1 : 1))) hash.update(`lev:${memberId}:${leverage};`);
    return hash.digest("hex");
  }
}
