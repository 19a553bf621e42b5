/**
 * The wallet's lists of the protocol that the browser's pages read too, without zod (decision
 * 034): the modules that define the wire's schemas re-export them.
 */

/** What a bill (a line of a member's account statement) is for. */
export const BILL_TYPES = ["deposit", "withdrawal", "withdrawal_fee", "transfer_in", "transfer_out", "trade", "trade_fee", "other"] as const;

/** A withdrawal's states (decision 028), in the order it moves through them. */
export const WITHDRAWAL_STATES = ["review", "approved", "broadcast", "completed", "rejected", "cancelled"] as const;

/** The states in which the member may still cancel a withdrawal. */
export const CANCELLABLE_WITHDRAWAL_STATES = ["review"] as const;

/** The first and the last day a date filter accepts (UTC, `YYYY-MM-DD`). */
export const FIRST_DAY = "2000-01-01";
export const LAST_DAY = "2099-12-31";
