import { ResultCode } from "./result-codes";

/**
 * The machine-readable reason of a refusal, carried in the envelope's `reason` beside the
 * translated `msg` (issue 11): clients and outside tests match these codes, never the words,
 * which change with the language and the wording. A code, once published, keeps its meaning;
 * new codes may be added, so a client treats an unknown one like the generic code of the
 * envelope's `code` (the last group below).
 *
 * The spot codes are the core's own result codes (`engine/core/spot/spot-market.ts`), passed on
 * as they are, except where passing them would tell a member about another member's order.
 */
export const REFUSAL_REASONS = {
  // Input
  /** The path, query or body did not match the endpoint's schema; `msg` names the fields. */
  VALIDATION: "input does not match the endpoint's schema",

  // Members, sessions, codes
  /** No token, or one that expired or was revoked: log in again. */
  UNAUTHORIZED: "not logged in, or the session ended",
  /** Login refused: wrong account or password. */
  BAD_CREDENTIALS: "wrong account or password",
  /** Login step one passed: the Google code is needed (code 405, `msg` "step 1 login successful"). */
  SECOND_FACTOR_REQUIRED: "the second factor is needed",
  /** Login refused: an operator froze the account (the password was right). */
  ACCOUNT_FROZEN: "the account is frozen",
  /** Too many attempts from this address or at this account; `msg` says how long to wait. */
  TOO_MANY_ATTEMPTS: "too many attempts, wait",
  /** A code was sent to this address for this purpose a moment ago. */
  CODE_WAIT: "wait before asking for another code",
  CODE_WRONG: "the verification code is wrong",
  CODE_EXPIRED: "the verification code expired or was not requested",
  CODE_LOCKED: "too many wrong codes: request a new one",
  GOOGLE_CODE_WRONG: "the Google Authenticator code is wrong",
  GOOGLE_BOUND: "Google Authenticator is already bound",
  GOOGLE_NOT_BOUND: "Google Authenticator is not bound",
  ACCOUNT_TAKEN: "the e-mail or phone is registered already",
  ACCOUNT_UNKNOWN: "no member with this e-mail or phone",
  ALREADY_BOUND: "the member has an e-mail (or phone) already",
  INVITE_UNKNOWN: "the invite code does not exist",
  REGISTRATION_REFUSED: "the registration looked automated",
  OLD_PASSWORD_WRONG: "the current password is wrong",
  PHONE_INVALID: "the phone number is not valid",
  DEVICE_UNKNOWN: "no such device of this member",
  NOT_YOURS: "codes go to the member's own account only",
  DEMO_LOCKED: "the demo member's security settings are fixed",
  KYC_PENDING: "identity verification is in review or approved already",
  UPLOAD_MISSING: "no image was uploaded",
  UPLOAD_TOO_LARGE: "the image is too large",
  UPLOAD_TYPE: "the file is not an image of an allowed type",
  UPLOAD_UNREADABLE: "the upload was cut off or malformed",
  /** The member's uploads fill their quota (in all, or in the last 24 hours); `msg` says which. */
  UPLOAD_QUOTA: "the member may upload no more",

  // Markets and orders
  MARKET_UNKNOWN: "no such market",
  FAVOURITE_UNKNOWN_SYMBOL: "no such market to add to the favourites",
  /** An operator halted the market: new orders are refused, cancels still work. */
  MARKET_HALTED: "the market is halted",
  /** The idempotency key was used for a different request; nothing was done (code 409). */
  IDEMPOTENCY_KEY_REUSED: "the idempotency key was used for another request",
  RISK_INSUFFICIENT_AVAILABLE: "the available balance is too small",
  ORDER_BAD_TICK: "the price has more decimals than the market's tick",
  ORDER_BAD_LOT: "the amount has more decimals than the market's lot",
  ORDER_BAD_MONEY: "the money to spend has too many decimals",
  ORDER_TOO_SMALL: "the amount is below the market's minimum",
  ORDER_OUT_OF_RANGE: "a price or amount is too large",
  /** The order's fields do not fit its type (a limit order without price, …), or the transfer is malformed. */
  ORDER_BAD_COMMAND: "the order cannot be placed as sent",
  /** A margin order (dealType pry) on a market its margin account does not trade (decision 050). */
  ORDER_NOT_ON_MARGIN: "the market is not traded from this margin account",
  /** The order does not exist, is closed, or is another member's (not told apart). */
  ORDER_UNKNOWN: "no such open order",
  ORDER_NOT_FOUND: "no such order in the member's history",
  MATCHING_POST_ONLY_WOULD_TRADE: "a post-only order would have traded",
  MATCHING_FOK_NOT_FILLED: "a fill-or-kill order could not fill completely",
  STOP_ONLY_FIELDS: "stop prices were sent with an order that is not a stop order",
  STOP_NEEDS_TRIGGER: "a stop order needs a stop-profit or stop-loss price",
  STOP_PROFIT_WOULD_TRIGGER: "the stop-profit price would fire at once",
  STOP_LOSS_WOULD_TRIGGER: "the stop-loss price would fire at once",
  STOP_PRICES_CROSSED: "the stop-profit and stop-loss prices are the wrong way round",
  STOP_MARKET_BUY_BY_AMOUNT: "a stop market buy names the money to spend",
  EXPORT_TOO_MANY: "too many rows to export: narrow the filter",

  // Perpetual contracts (issue 30; the core's codes, engine/core/contracts)
  CONTRACT_UNKNOWN: "no such contract",
  CONTRACT_HALTED: "trading in the contract is paused",
  /** The contract has no mark price yet (its index has no fresh source). */
  CONTRACT_NO_PRICE: "the contract has no mark price yet",
  CONTRACT_BAD_ORDER: "the contract order cannot be placed as sent",
  CONTRACT_TICK: "the price is not on the contract's tick",
  CONTRACT_QTY: "the quantity is outside the contract's order limits",
  /** Not a whole number within limits, or not the leverage of the member's other opening orders in the contract. */
  CONTRACT_LEVERAGE: "the leverage is not allowed",
  CONTRACT_LEVERAGE_BAND: "the leverage is above what the position's risk band allows",
  CONTRACT_PRICE_BAND: "the price is too far from the mark",
  CONTRACT_INSUFFICIENT_MARGIN: "the available margin is too small",
  /** Positions are one-way: the other way needs the position closed (and orders that way cancelled) first. */
  CONTRACT_CLOSE_FIRST: "close the position the other way first",
  CONTRACT_NOTHING_TO_CLOSE: "no position to close in this direction",
  CONTRACT_CLOSE_TOO_MUCH: "the close exceeds the position",
  /** The order does not exist, is closed, or is another member's (not told apart). */
  CONTRACT_UNKNOWN_ORDER: "no such open contract order",
  CONTRACT_POST_ONLY_WOULD_TRADE: "a post-only contract order would have traded",
  CONTRACT_FOK_NOT_FILLED: "a fill-or-kill contract order could not fill completely",
  CONTRACT_ORDERS_OPEN: "cancel the open orders in the contract first",
  CONTRACT_MARGIN_BELOW_INITIAL: "the position would fall below its initial margin",
  CONTRACT_BAD_RULES: "the contract's rules cannot be changed to these",
  /** A stop's trigger price is off the tick, or where the price it watches already is (it would fire at once); a take profit or stop loss on the wrong side of it. */
  CONTRACT_TRIGGER_PRICE: "the trigger price is not allowed",
  /** A margin mode is changed only with no position and no open order in the contract. */
  CONTRACT_POSITION_OPEN: "close the position in the contract first",
  /** A cross position's margin is the free balance: it is not added to or taken from (decision 049). */
  CONTRACT_MARGIN_MODE: "not in this margin mode",
  /** An operator asked to move more fees into an insurance fund than the fees collected. */
  CONTRACT_FEES_SHORT: "the fees collected are less than the amount",
  /** A member has as many waiting stop orders in the contract as it allows (decision 048). */
  CONTRACT_TOO_MANY_STOPS: "too many waiting stop orders in the contract",
  /** The path's open or close does not match the direction (1, 2 open; 3, 4 close). */
  CONTRACT_DIRECTION: "the direction does not match open or close",

  // Margin (issue 31; the core's codes, engine/core/margin; decision 050)
  MARGIN_UNKNOWN_PAIR: "the symbol is not traded on margin",
  /** The coin is not one of the account's (an isolated account holds its symbol's two), or no pool lends it. */
  MARGIN_UNKNOWN_ASSET: "the coin is not held or lent in this margin account",
  MARGIN_BAD_AMOUNT: "the amount is not above 0 at the coin's decimals",
  MARGIN_BELOW_MINIMUM: "below the smallest borrow of the coin",
  MARGIN_POOL_EXHAUSTED: "the lending pool has lent up to its limit",
  /** More than the leverage allows on the account's equity (`msg` names the most). */
  MARGIN_OVER_LIMIT: "more than the account may borrow now",
  /** The coin has no spot price yet: it cannot be valued, so it cannot be borrowed. */
  MARGIN_NO_PRICE: "the coin has no price yet",
  MARGIN_INSUFFICIENT: "not enough available in the account",
  MARGIN_REPAY_EXCEEDS: "more than is owed",
  /** A transfer out would take the margin level below 2.00. */
  MARGIN_LEVEL_UNSAFE: "the margin level would fall below what a transfer out needs",
  MARGIN_BAD_LEVERAGE: "the leverage is not allowed",
  MARGIN_BAD_RULES: "the lending pool's rules cannot be changed to these",
  /** An operator's funding of a margin insurance: more than the coin's trading fees hold. */
  MARGIN_FEES_SHORT: "the trading fees of the coin hold less than that",

  // Crypto loans (issue 31; the core's codes, engine/core/loans; decision 051)
  PLEDGE_UNKNOWN_PRODUCT: "no such loan product",
  PLEDGE_PRODUCT_DISABLED: "the loan product takes no new loans now",
  /** No such open loan of this member (another member's answers the same). */
  PLEDGE_UNKNOWN_LOAN: "no such open loan",
  PLEDGE_BAD_AMOUNT: "the amount is not above 0 at the coin's decimals",
  PLEDGE_BELOW_MINIMUM: "below the product's smallest loan",
  PLEDGE_ABOVE_MAXIMUM: "above the product's largest loan",
  /** The collateral's market has not traded yet: the loan cannot be valued. */
  PLEDGE_NO_PRICE: "the collateral has no price yet",
  /** A borrow or a collateral withdrawal would leave the loan above its initial LTV (`msg` names the most). */
  PLEDGE_LTV_TOO_HIGH: "the loan would be above its initial LTV",
  PLEDGE_INSUFFICIENT: "not enough available in the funding account",
  PLEDGE_REPAY_EXCEEDS: "more than is owed",
  PLEDGE_BAD_RULES: "the loan product's rules cannot be these",

  // Staking (issue 32; the core's codes, engine/core/earn; decision 052)
  STAKE_UNKNOWN_PRODUCT: "no such staking product",
  STAKE_PRODUCT_DISABLED: "the staking product takes no new stakes now",
  /** No such running stake of this member (another member's answers the same). */
  STAKE_UNKNOWN_STAKE: "no such running stake",
  STAKE_BAD_AMOUNT: "the amount is not above 0 at the coin's decimals",
  STAKE_BELOW_MINIMUM: "below the product's smallest stake",
  STAKE_ABOVE_MEMBER_LIMIT: "above what one member may stake in the product",
  STAKE_ABOVE_CAP: "above what is left of the product's cap",
  STAKE_INSUFFICIENT: "not enough available in the funding account",
  STAKE_REDEEM_EXCEEDS: "more than the stake holds",
  /** A fixed stake is redeemed whole (early: its interest forfeited). */
  STAKE_FIXED_WHOLE: "a fixed stake is redeemed whole",
  STAKE_BAD_RULES: "the staking product's rules cannot be these",

  // New-coin and ETF subscriptions (issue 32; the core's codes, engine/core/earn; decision 053)
  SUB_UNKNOWN_PROJECT: "no such subscription project",
  /** Before the project's window opens, or after it closes. */
  SUB_NOT_OPEN: "the project's window is not open",
  SUB_BAD_QUANTITY: "the quantity is not a positive whole number of the project's lots",
  SUB_BELOW_MINIMUM: "below the project's smallest subscription",
  SUB_ABOVE_MEMBER_LIMIT: "above what one member may ask in the project",
  SUB_INSUFFICIENT: "not enough available in the funding account to pay",
  SUB_NOTHING_TO_RETURN: "nothing waits to be returned (or it is applied for already)",
  SUB_UNKNOWN_APPLICATION: "no such pending return application",
  SUB_PROJECT_STARTED: "the project's window has opened: it no longer changes",
  SUB_BAD_RULES: "the project's rules cannot be these",

  // Wallet
  /** No such withdrawal of this member (or none open: it is final). */
  WITHDRAWAL_UNKNOWN: "no such withdrawal",
  /** The step is not allowed from where the withdrawal stands (a cancel after approval). */
  WITHDRAWAL_WRONG_STATE: "the withdrawal is past that step",
  /** No such coin is listed. */
  COIN_UNKNOWN: "no such coin",
  /** The coin is not carried on the network asked for. */
  WITHDRAWAL_NETWORK_UNKNOWN: "the coin cannot be withdrawn on that network",
  /** The coin's withdrawals on this network are switched off. */
  WITHDRAWAL_DISABLED: "withdrawals of the coin on this network are switched off",
  /** The address (or destination tag) does not fit the network's format or checksum. */
  ADDRESS_INVALID: "not a valid address of the network",
  WITHDRAWAL_BELOW_MINIMUM: "the amount is below the network's minimum withdrawal",
  /** The amount has more decimals than the coin keeps. */
  AMOUNT_PRECISION: "the amount has more decimals than the coin",
  /** Today's withdrawals of the coin and this one exceed the member's daily limit. */
  WITHDRAWAL_DAILY_LIMIT: "the daily withdrawal limit would be exceeded",
  /** Whitelist mode is on and the address (with its tag) is not in the member's address book for the coin and network. */
  ADDRESS_NOT_WHITELISTED: "whitelist mode: the address is not saved in the address book",
  /** Whitelist mode is on and the address was saved less than 24 hours ago; `msg` says from when it can be used. */
  ADDRESS_WHITELIST_WAITING: "whitelist mode: the saved address is not usable yet",
  /** The same coin, network, address and tag are saved already. */
  ADDRESS_DUPLICATE: "the address is saved already",
  /** The address book holds its most (50) already. */
  ADDRESS_BOOK_FULL: "the address book is full",
  /** No such saved address of this member. */
  ADDRESS_UNKNOWN: "no such saved address",
  /** The member has no transaction password yet. */
  TRADE_PASSWORD_NOT_SET: "no transaction password is set",
  TRADE_PASSWORD_WRONG: "the transaction password is wrong",
  /** The coin is not carried on the network asked for (or either does not exist). */
  DEPOSIT_NETWORK_UNKNOWN: "the coin has no such network",
  /** The coin's deposits on this network are switched off (maintenance, or no custody for the chain yet). */
  DEPOSIT_DISABLED: "deposits of the coin on this network are switched off",
  /** The network's addresses come from custody's pool (Solana; decision 042) and none is free: the member may try again later. */
  DEPOSIT_ADDRESS_POOL_EMPTY: "no deposit address of this network is free at the moment",

  // Operators (decision 043)
  /** The operator's role does not permit the call (protocol/operators.ts). */
  OPERATOR_ROLE: "the operator's role does not permit this",
  /** Wrong e-mail, password or authenticator code, or the operator is disabled (not told apart). */
  OPERATOR_CREDENTIALS: "wrong operator credentials",
  /** The first login: the operator sets up an authenticator before anything else (`data` carries the secret). */
  OPERATOR_TOTP_SETUP: "the operator must set up an authenticator first",
  /** An operator with this e-mail exists already. */
  OPERATOR_EXISTS: "an operator with this e-mail exists",
  /** No such operator. */
  OPERATOR_UNKNOWN: "no such operator",
  /** An admin cannot take away their own role or disable themselves (the console would lose its last admin). */
  OPERATOR_SELF: "an operator cannot change their own role or access",
  /** Another operator decided this first (a KYC or withdrawal review); `msg` says what stands. */
  DECIDED_ALREADY: "another operator decided this first",
  /** A configuration row's code (a link's, a language's, a currency's) belongs to another row of its table. */
  CONFIG_TAKEN: "another row of the table has this code",
  /** A navigation item's parent is none of the header's roots (or the item itself, or a root with items under it). */
  CONFIG_PARENT: "the parent is not a root of the navigation",
  /** The row is needed: a root with items under it, the last language or currency. */
  CONFIG_IN_USE: "the row is needed and stays",

  // Generic: the result code, when no reason above is more precise
  BAD_REQUEST: "the request was refused",
  FORBIDDEN: "not allowed (an operator call without the admin token, …)",
  NOT_FOUND: "not found (also: no such API)",
  CONFLICT: "conflicts with the current state",
  PAYLOAD_TOO_LARGE: "the request is too large",
  RATE_LIMITED: "too many requests",
  INTERNAL: "an error of the engine",
  UNAVAILABLE: "the engine cannot serve this now",
} as const;

export type RefusalReason = keyof typeof REFUSAL_REASONS;

export const REFUSAL_REASON_CODES = Object.keys(REFUSAL_REASONS) as RefusalReason[];

const BY_RESULT_CODE: Partial<Record<number, RefusalReason>> = {
  [ResultCode.BAD_REQUEST]: "BAD_REQUEST",
  [ResultCode.UNAUTHORIZED]: "UNAUTHORIZED",
  [ResultCode.FORBIDDEN]: "FORBIDDEN",
  [ResultCode.NOT_FOUND]: "NOT_FOUND",
  [ResultCode.PASS_THROUGH]: "SECOND_FACTOR_REQUIRED",
  [ResultCode.CONFLICT]: "CONFLICT",
  [ResultCode.PAYLOAD_TOO_LARGE]: "PAYLOAD_TOO_LARGE",
  [ResultCode.TOO_MANY_REQUESTS]: "RATE_LIMITED",
  [ResultCode.INTERNAL]: "INTERNAL",
  [ResultCode.UNAVAILABLE]: "UNAVAILABLE",
};

/** The generic reason of a result code (a 5xx without one of its own is `INTERNAL`, anything else `BAD_REQUEST`). */
export function reasonOfResultCode(code: number): RefusalReason {
  return BY_RESULT_CODE[code] ?? (code >= 500 ? "INTERNAL" : "BAD_REQUEST");
}
