/**
 * A member's accounts and the numbers the wire gives them (decision 023). Every product names
 * its accounts from this table: `getMyBalance?type=`, `wallet/trans` from/to, the wallet's
 * `getWalletAccount` rows, the assets page's `t=`, and the bills' account filter.
 *
 * | code | account | holds |
 * |---|---|---|
 * | 0 | total | not an account: the sum of the member's accounts, valued in USDT (`getWalletAccount`) |
 * | 1 | funding | deposits arrive here, withdrawals leave from here (the "coin account" of the wallet) |
 * | 2 | spot | what spot orders trade with |
 * | 3 | margin | reserved for margin trading (spec "dealType: cash or pry"); not in the ledger yet |
 * | 4 | contract | margin of ubw (USDT-margined) and bbw (coin-margined) contracts, one balance per coin |
 * | 8 | merchant | OTC merchants only (`is_merchant` 2) |
 */
export const ACCOUNTS = {
  "0": "total",
  "1": "funding",
  "2": "spot",
  "3": "margin",
  "4": "contract",
  "8": "merchant",
} as const;

export type AccountCode = keyof typeof ACCOUNTS;
export type AccountName = (typeof ACCOUNTS)[AccountCode];
/** The accounts that hold balances (all but the total). */
export type BalanceAccountName = Exclude<AccountName, "total">;

/** The code of each account name. */
export const ACCOUNT_CODES = { total: "0", funding: "1", spot: "2", margin: "3", contract: "4", merchant: "8" } as const satisfies {
  [N in AccountName]: { [C in AccountCode]: (typeof ACCOUNTS)[C] extends N ? C : never }[AccountCode];
};

/**
 * The accounts a member can hold and move funds between today: margin waits for the margin
 * product; merchant for OTC. Grows as products land; the API's `type`, `from` and `to` accept
 * exactly these.
 */
export const OPEN_ACCOUNTS = ["funding", "spot", "contract"] as const satisfies readonly BalanceAccountName[];
export type OpenAccountName = (typeof OPEN_ACCOUNTS)[number];
export const OPEN_ACCOUNT_CODES = [ACCOUNT_CODES.funding, ACCOUNT_CODES.spot, ACCOUNT_CODES.contract] as const satisfies ReadonlyArray<
  (typeof ACCOUNT_CODES)[OpenAccountName]
>;
