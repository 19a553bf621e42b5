import type { AccountKind } from "../ledger/ledger";
import type { Side, TimeInForce } from "../matching/order-book";
import type { WithdrawalAction } from "../wallet/withdrawals";

/**
 * What the exchange core accepts: plain data (decimal texts, no bigint, no functions), so a
 * command can be written to the journal as it is and replayed later to the same result. Every
 * id a command needs from outside (order id, transfer id) is in the command; every id the core
 * makes itself comes from the command's sequence number (exchange-core.ts).
 */
export type Command = PlaceOrder | CancelOrder | MoveFunds | Deposit | RequestWithdrawal | StepWithdrawal | HaltMarket | ChangeMarketRules | ListMarket;

/** A spot order (a stop order when a stop price is given; its `price` is then its triggerMoney). */
export interface PlaceOrder {
  type: "spot.place";
  memberId: string;
  orderId: string;
  symbol: string;
  side: Side;
  orderType: "limit" | "market";
  tif: TimeInForce;
  price?: string;
  quantity?: string;
  money?: string;
  stopProfitPrice?: string;
  stopLossPrice?: string;
  /** The member's own id for the order: carried to its `order.placed` event, nothing else reads it. */
  clientOrderId?: string;
}

export interface CancelOrder {
  type: "spot.cancel";
  memberId: string;
  orderId: string;
}

/** Funds between two of a member's own accounts (funding ↔ spot, later contract and the rest). */
export interface MoveFunds {
  type: "ledger.transfer";
  id: string;
  memberId: string;
  asset: string;
  from: AccountKind;
  to: AccountKind;
  amount: string;
}

/** Funds entering from outside (an operator's credit, the demo funds, a chain deposit). */
export interface Deposit {
  type: "ledger.deposit";
  id: string;
  memberId: string;
  asset: string;
  kind: AccountKind;
  amount: string;
  /** A chain deposit's network and transaction: the projection's (the member's mail), the core reads none of it. */
  source?: DepositSource;
}

/** Where a chain deposit came from, as the member knows it. */
export interface DepositSource {
  network: string;
  txid: string;
}

/** A member asks to withdraw `amount` of an asset from their funding account, paying `fee` (core/wallet/withdrawals.ts). */
export interface RequestWithdrawal {
  type: "wallet.withdraw";
  id: string;
  memberId: string;
  asset: string;
  amount: string;
  fee: string;
  /** Where it goes: the projection's, the core reads none of them. */
  network?: string;
  address?: string;
  /** A destination tag or memo (XRP and the like). */
  memo?: string;
}

/**
 * A withdrawal's next step: an operator approves or rejects it, its member cancels it (`memberId`
 * set: only their own), the sender broadcast it (`txid`), the chain confirmed it.
 */
export interface StepWithdrawal {
  type: "wallet.withdrawal";
  id: string;
  action: WithdrawalAction;
  memberId?: string;
  reason?: string;
  txid?: string;
}

export interface HaltMarket {
  type: "market.halt";
  symbol: string;
  halted: boolean;
}

/** A live market's minimum quantity or fees, from the next order. */
export interface ChangeMarketRules {
  type: "market.rules";
  symbol: string;
  minQuantity?: string;
  makerFeeBps?: number;
  takerFeeBps?: number;
}

/** A new spot market (and its base asset, when that is new too). Decimals at the market's scales. */
export interface ListMarket {
  type: "market.list";
  symbol: string;
  base: string;
  quote: string;
  priceScale: number;
  amountScale: number;
  tickSize: string;
  lotSize: string;
  minQuantity: string;
  makerFeeBps: number;
  takerFeeBps: number;
  /** The base asset's decimals, when the exchange does not list it yet. */
  newBaseScale?: number;
  /** The new base asset's name (for its row; the core does not need it). */
  newBaseName?: string;
}
