import type { WithdrawalState } from "../wallet/withdrawals";
import type { AccountKind, TransferEvent } from "../ledger/ledger";
import type { Side, TimeInForce } from "../matching/order-book";
import type { StopKind } from "../spot/stop-orders";
import type { PerpetualEvent } from "../contracts/perpetual";
import type { MarginEvent } from "../margin/margin";
import type { PledgeEvent } from "../loans/pledge-loans";
import type { StakeEvent } from "../earn/staking";
import type { SubscriptionEvent } from "../earn/subscriptions";

export type { ContractOrderPlaced } from "../contracts/contract-market";

/**
 * What an accepted command did, as one ordered list of typed facts (decision 017, step 6). The
 * core emits them in the order they happened inside the command: an order is placed (its hold
 * taken), trades settle one after the other (each followed by its ledger transfers), orders end,
 * stops fire and trade in turn. Everything outside the core reads a command's effect from these
 * alone: the products' projections (query tables), market data (trades, candles, depth), the
 * answers to members and the real-time pushes. None of them is handed a live market.
 *
 * Amounts are minor units (bigint) at the scales of the market or asset they belong to; an
 * event names its market by symbol, whose configuration `ExchangeCore.markets` holds.
 */
export type CoreEvent =
  | OrderPlaced
  | StopTriggered
  | TradeEvent
  | OrderClosed
  | BookChanged
  | MarketChanged
  | WithdrawalChanged
  | TransferEvent
  | PerpetualEvent
  | ContractRulesChanged
  | InsuranceFunded
  | MarginEvent
  | PledgeEvent
  | StakeEvent
  | SubscriptionEvent;

/** An operator moved fees into a settlement asset's insurance fund (the transfer is before it). */
export interface InsuranceFunded {
  type: "contract.insurance_funded";
  asset: string;
  amount: bigint;
}

/** An operator changed a contract's rules or halted or resumed it. */
export interface ContractRulesChanged {
  type: "contract.rules";
  symbol: string;
}

export type CoreEventType = CoreEvent["type"];

/** An order entered its market: the funds it can cost are held, and it matches now (or waits for its stop price). */
export interface OrderPlaced {
  type: "order.placed";
  symbol: string;
  orderId: string;
  memberId: string;
  side: Side;
  orderType: "limit" | "market";
  tif: TimeInForce;
  /** A limit order's price; a stop order's triggerMoney (its price once it fires). */
  price?: bigint;
  quantity?: bigint;
  /** A market buy by money: quote at the quote asset's scale. */
  money?: bigint;
  stopProfitPrice?: bigint;
  stopLossPrice?: bigint;
  /** A stop order: it waits off the book until the last trade price reaches a stop price. */
  waiting: boolean;
  /** The member's own id for the order, as the command carried it. */
  clientOrderId?: string;
  /** The account it trades from when not the spot account: a margin account (decision 050). */
  account?: AccountKind;
}

/** A waiting stop order fired (the last price reached its stop price) and enters the book now, in the same command. */
export interface StopTriggered {
  type: "order.triggered";
  symbol: string;
  orderId: string;
  memberId: string;
  side: Side;
  kind: StopKind;
  stopPrice: bigint;
  /** The last trade price that fired it. */
  lastPrice: bigint;
}

/** One trade, settled: its transfers follow it in the stream. */
export interface TradeEvent {
  type: "trade";
  symbol: string;
  takerOrderId: string;
  makerOrderId: string;
  buyer: string;
  seller: string;
  price: bigint;
  quantity: bigint;
  /** Quote value at the quote asset's scale. */
  value: bigint;
  /** Paid by the buyer in base, by the seller in quote (each at its asset's scale). */
  buyerFee: bigint;
  sellerFee: bigint;
  takerSide: Side;
}

/** An order ended: filled, or cancelled (by its member, its time in force, the book or a refused trigger) and why. */
export interface OrderClosed {
  type: "order.closed";
  symbol: string;
  orderId: string;
  memberId: string;
  status: "filled" | "cancelled";
  reason?: string;
}

/** The market's book changed in this command (an order rested, traded or left it): its depth is new. */
export interface BookChanged {
  type: "book.changed";
  symbol: string;
}

/** An operator listed, halted, resumed or changed the rules of a market. */
export interface MarketChanged {
  type: "market.changed";
  symbol: string;
  change: "listed" | "halted" | "resumed" | "rules";
}

/** A withdrawal was asked for or moved a step (core/wallet/withdrawals.ts); its money moves in the transfers after it. */
export interface WithdrawalChanged {
  type: "withdrawal.changed";
  id: string;
  memberId: string;
  asset: string;
  amount: bigint;
  fee: bigint;
  state: WithdrawalState;
  /** An operator's reason for a rejection. */
  reason?: string;
  /** The chain transaction, from the broadcast on. */
  txid?: string;
}

export type { TransferEvent };

type EventOf<T extends CoreEventType> = Extract<CoreEvent, { type: T }>;

/** The events of one type, in stream order. */
export function eventsOf<T extends CoreEventType>(events: readonly CoreEvent[], type: T): Array<EventOf<T>> {
  const out: Array<EventOf<T>> = [];
  for (const event of events) if (event.type === type) out.push(event as EventOf<T>);
  return out;
}

/** Members whose orders or balances an event stream touched (the exchange's own accounts start with `@`). */
export function membersTouched(events: readonly CoreEvent[], ownerOf: (accountId: string) => string): Set<string> {
  const members = new Set<string>();
  for (const e of events) {
    switch (e.type) {
      case "order.placed":
      case "order.triggered":
      case "order.closed":
      case "withdrawal.changed":
      case "contract.placed":
      case "contract.stop_placed":
      case "contract.stop_ended":
      case "contract.position":
      case "contract.order_ended":
      case "contract.leverage":
      case "contract.margin_mode":
      case "contract.funding":
      case "contract.liquidated":
      case "contract.deleveraged":
      case "contract.deficit":
      case "margin.borrowed":
      case "margin.repaid":
      case "margin.transferred":
      case "margin.leverage":
      case "margin.level":
      case "pledge.borrowed":
      case "pledge.repaid":
      case "pledge.collateral":
      case "pledge.ltv":
      case "pledge.liquidated":
      case "stake.invested":
      case "stake.paid":
      case "subscription.subscribed":
      case "subscription.settled":
      case "subscription.return_applied":
      case "subscription.returned":
        if (!e.memberId.startsWith("@")) members.add(e.memberId);
        break;
      case "trade":
        members.add(e.buyer).add(e.seller);
        break;
      case "transfer": {
        const owner = ownerOf(e.debit);
        if (owner && !owner.startsWith("@")) members.add(owner);
        if (e.credit) {
          const to = ownerOf(e.credit);
          if (to && !to.startsWith("@")) members.add(to);
        }
        break;
      }
    }
  }
  return members;
}
