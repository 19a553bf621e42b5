import type { AccountKind } from "../ledger/ledger";
import type { Side, TimeInForce } from "../matching/order-book";
import type { WithdrawalAction } from "../wallet/withdrawals";

/**
 * What the exchange core accepts: plain data (decimal texts, no bigint, no functions), so a
 * command can be written to the journal as it is and replayed later to the same result. Every
 * id a command needs from outside (order id, transfer id) is in the command; every id the core
 * makes itself comes from the command's sequence number (exchange-core.ts).
 */
export type Command =
  | PlaceOrder
  | CancelOrder
  | MoveFunds
  | Deposit
  | RequestWithdrawal
  | StepWithdrawal
  | HaltMarket
  | ChangeMarketRules
  | ListMarket
  | ContractCommand
  | MarginCommand
  | PledgeCommand
  | StakeCommand
  | SubscriptionCommand;

/** New-coin and ETF subscriptions' commands (decision 053). Quantities are decimal texts in the coin; `at` the engine's clock (ms). */
export type SubscriptionCommand = Subscribe | SubscriptionTick | ReturnApply | ReturnPay | SubscriptionProjectRules;

/** A member subscribes for `quantity` of a project's coin (a whole number of lots), its price held from their funding account. */
export interface Subscribe {
  type: "subscription.subscribe";
  memberId: string;
  projectId: string;
  quantity: string;
  at: number;
}

/** The subscriptions' clock: ended windows allotted, allotted subscriptions settled. */
export interface SubscriptionTick {
  type: "subscription.tick";
  at: number;
}

/** A member applies for every return kept for them (decision 005's variants). */
export interface ReturnApply {
  type: "subscription.return_apply";
  memberId: string;
  at: number;
}

/** An operator pays a return application. */
export interface ReturnPay {
  type: "subscription.return_pay";
  applicationId: string;
}

/** An operator's project, new or changed before its window opens: price in the paying coin per whole coin, quantities in the coin. */
export interface SubscriptionProjectRules {
  type: "subscription.project";
  id: string;
  projectType: 1 | 2;
  asset: string;
  quoteAsset: string;
  price: string;
  lot: string;
  supply: string;
  minPerMember: string;
  maxPerMember: string;
  startAt: number;
  endAt: number;
  returnByApplication: boolean;
  /** The engine's clock (ms): a project whose window has opened no longer changes. */
  at: number;
}

/** Staking's commands (decision 052). Amounts are decimal texts in the coin; `at` the engine's clock (ms). */
export type StakeCommand = StakeInvest | StakeRedeem | StakeTick | StakeProductRules;

/** A member stakes `amount` of a product's coin from their funding account. */
export interface StakeInvest {
  type: "stake.invest";
  memberId: string;
  productId: string;
  amount: string;
  at: number;
}

/** A member takes a stake back: part of a flexible one's principal (`amount`), or a whole stake (no amount). */
export interface StakeRedeem {
  type: "stake.redeem";
  memberId: string;
  stakeId: string;
  amount?: string;
  at: number;
}

/** Staking's clock: each day's interest credited at its start, fixed stakes paid at maturity. */
export interface StakeTick {
  type: "stake.tick";
  at: number;
}

/** An operator's staking product, new or changed: the yearly rate a fraction (at most 0.18), amounts in the coin. */
export interface StakeProductRules {
  type: "stake.product";
  id: string;
  asset: string;
  termDays: number;
  yearlyRate: string;
  cap: string;
  minAmount: string;
  maxPerMember: string;
  enabled: boolean;
}

/** Crypto loans' commands (decision 051). Amounts are decimal texts in the coin. */
export type PledgeCommand = PledgeBorrow | PledgeRepay | PledgeCollateral | PledgeTick | PledgeProductRules;

/** A member borrows a product's loan coin against collateral; `at` (ms, the engine's clock) starts the first hour and the term. */
export interface PledgeBorrow {
  type: "pledge.borrow";
  memberId: string;
  productId: string;
  amount: string;
  collateral: string;
  at: number;
}

/** A member pays back part or all of a loan from their funding account: interest first. */
export interface PledgeRepay {
  type: "pledge.repay";
  memberId: string;
  loanId: string;
  amount: string;
}

/** A member adds collateral to a loan, or takes some back while it stays at or under the initial LTV. */
export interface PledgeCollateral {
  type: "pledge.collateral";
  memberId: string;
  loanId: string;
  amount: string;
  direction: "add" | "remove";
}

/** The loans' clock: interest for every hour begun, the LTVs watched, liquidations (ms). */
export interface PledgeTick {
  type: "pledge.tick";
  at: number;
}

/** An operator's product (new or changed): rates as hourly fractions, LTVs as fractions, amounts in the loan coin. */
export interface PledgeProductRules {
  type: "pledge.product";
  id: string;
  loanAsset: string;
  collateralAsset: string;
  termDays: number;
  hourlyRate: string;
  overdueRate: string;
  initialLtv: string;
  callLtv: string;
  liquidationLtv: string;
  minAmount: string;
  maxAmount: string;
  enabled: boolean;
}

/** Margin trading's commands (decision 050). `scope` is "all" (cross) or an isolated account's symbol. */
export type MarginCommand = MarginBorrow | MarginRepay | MarginTransfer | MarginLeverage | MarginTick | MarginPoolRules | MarginPairRules | FundMarginInsurance;

/** An operator moves trading fees of a coin into its margin insurance (what covers a liquidation's shortfall before the pool). */
export interface FundMarginInsurance {
  type: "margin.insurance";
  asset: string;
  amount: string;
}

/** A member borrows a coin into a margin account; `at` (ms, the engine's clock) starts the first hour, charged at once. */
export interface MarginBorrow {
  type: "margin.borrow";
  memberId: string;
  scope: string;
  asset: string;
  amount: string;
  at: number;
}

/** A member pays back a coin owed in a margin account from that account: interest first. */
export interface MarginRepay {
  type: "margin.repay";
  memberId: string;
  scope: string;
  asset: string;
  amount: string;
}

/** Funds between a member's funding account and a margin account (out only while its level stays safe). */
export interface MarginTransfer {
  type: "margin.transfer";
  memberId: string;
  scope: string;
  asset: string;
  amount: string;
  direction: "in" | "out";
}

/** A member's isolated leverage on a symbol. */
export interface MarginLeverage {
  type: "margin.leverage";
  memberId: string;
  symbol: string;
  leverage: number;
}

/** The margin loop's clock: interest for every hour begun, and the levels watched (ms). */
export interface MarginTick {
  type: "margin.tick";
  at: number;
}

/** An operator's change to a lending pool (decimals: the hourly rate as a fraction, amounts in the coin). */
export interface MarginPoolRules {
  type: "margin.pool";
  asset: string;
  hourlyRate?: string;
  limit?: string;
  minBorrow?: string;
}

/** An operator puts a spot market on margin, or changes its highest isolated leverage (2 to 10). */
export interface MarginPairRules {
  type: "margin.pair";
  symbol: string;
  maxLeverage: number;
}

/** The perpetual contracts' commands (decision 046). */
export type ContractCommand =
  | PlaceContractOrder
  | PlaceContractStop
  | SetPositionStops
  | CancelContractOrder
  | SetContractLeverage
  | SetMarginMode
  | ChangeContractMargin
  | CloseContractPositions
  | ContractTick
  | ChangeContractRules
  | FundInsurance;

/**
 * A contract order: opens or adds to a position (`open`), or reduces it (`close`, never more than
 * it holds). Contracts are whole; a limit's price at the contract's price scale. Opening orders
 * take the member's leverage in that contract (`contract.leverage`); market orders trade within
 * the price band around the mark as IOC or FOK.
 */
export interface PlaceContractOrder {
  type: "contract.place";
  memberId: string;
  orderId: string;
  symbol: string;
  side: Side;
  action: "open" | "close";
  orderType: "limit" | "market";
  tif: TimeInForce;
  price?: string;
  quantity: string;
}

/**
 * A contract stop order (decision 048): the order above, placed under `stopId` once the mark or the
 * last trade price (`triggerBy`) reaches `triggerPrice`; it holds nothing while it waits.
 */
export interface PlaceContractStop {
  type: "contract.stop";
  memberId: string;
  stopId: string;
  symbol: string;
  side: Side;
  action: "open" | "close";
  orderType: "limit" | "market";
  tif: TimeInForce;
  price?: string;
  quantity: string;
  triggerBy: "mark" | "last";
  triggerPrice: string;
}

/** A position's take profit and stop loss (either or both; decision 048), replacing those set before. */
export interface SetPositionStops {
  type: "contract.tpsl";
  memberId: string;
  stopId: string;
  symbol: string;
  triggerBy: "mark" | "last";
  takeProfit?: string;
  stopLoss?: string;
}

/** Cancels a member's open contract order or waiting stop. */
export interface CancelContractOrder {
  type: "contract.cancel";
  memberId: string;
  orderId: string;
}

/** A member's leverage in one contract (their next orders', and their position's). */
export interface SetContractLeverage {
  type: "contract.leverage";
  memberId: string;
  symbol: string;
  leverage: number;
}

/** A member's margin mode in one contract (decision 049): only with no position and no open order there. */
export interface SetMarginMode {
  type: "contract.margin_mode";
  memberId: string;
  symbol: string;
  mode: "isolated" | "cross";
}

/** Margin added to (positive) or taken from (negative) a member's position, at the settlement asset's scale. */
export interface ChangeContractMargin {
  type: "contract.margin";
  memberId: string;
  symbol: string;
  amount: string;
}

/** One-key close: in each contract named, the member's orders cancelled and the position closed at the market (`orderId:symbol` each). */
export interface CloseContractPositions {
  type: "contract.close_all";
  memberId: string;
  orderId: string;
  symbols: string[];
}

/**
 * A second of the price loop: each contract's index (a decimal at its price scale; null when no
 * source is fresh) at `at` (ms, the loop's clock). Marks, liquidations and funding move here only.
 */
export interface ContractTick {
  type: "contract.tick";
  at: number;
  prices: Array<[symbol: string, index: string | null]>;
}

/**
 * An operator moves `amount` of the fees collected in a settlement asset into its insurance fund
 * (decision 048): the fund covers liquidations' shortfalls and the contracts' deficit.
 */
export interface FundInsurance {
  type: "contract.insurance";
  asset: string;
  amount: string;
}

/** An operator's change to a contract: halted or resumed, fees, order limits, the price band. */
export interface ChangeContractRules {
  type: "contract.rules";
  symbol: string;
  halted?: boolean;
  makerFeeBps?: number;
  takerFeeBps?: number;
  minQty?: string;
  maxQty?: string;
  /** RATE units (10^-8), as a decimal text of a whole number. */
  priceBand?: string;
}

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
  /**
   * Placed from a margin account (spec "dealType pry"; decision 050): "all" for cross margin, or the
   * market's own symbol for its isolated account. Absent: the spot account.
   */
  margin?: string;
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
