import { ACCOUNT_CODES, type OpenAccountName } from "#protocol/accounts";
import { endpoints } from "#protocol/endpoints";
import type { WithdrawalView } from "#protocol/endpoints/withdrawals";
import type { EngineCall } from "../call.server";
import type { EndpointInput } from "../endpoint-input";

/** The wallet: accounts valued, one account's coins, transfers between the member's accounts, withdrawals and their address book. */
export function walletArea(call: EngineCall) {
  return {
    /** Each account's value in USDT and their total (code "0"). */
    accounts: () => call(endpoints.walletAccounts, {}),
    /** One account's coins with balances, decimals and value. */
    coins: (account: OpenAccountName) => call(endpoints.currencyAccount, { query: { type: ACCOUNT_CODES[account] } }),
    /** Moves funds between two of the member's accounts; the key makes a retried post act once. */
    transfer: (t: { from: OpenAccountName; to: OpenAccountName; coin: string; amount: string; idempotencyKey: string }) =>
      call(endpoints.transfer, {
        query: { from: ACCOUNT_CODES[t.from], to: ACCOUNT_CODES[t.to], coin: t.coin, amount: t.amount, idempotencyKey: t.idempotencyKey },
      }),
    /** Asks to withdraw `amount` (what arrives; the fee comes on top); the key makes a retried post act once. */
    withdraw: (body: EndpointInput<typeof endpoints.withdraw>["body"]) => call(endpoints.withdraw, { body }),
    /** The member's withdrawals, newest first. */
    withdrawals: (page: { pageNo: number; pageSize: number; coin?: string; state?: WithdrawalView["state"] }) =>
      call(endpoints.myWithdrawals, {
        query: {
          pageNo: String(page.pageNo),
          pageSize: String(page.pageSize),
          ...(page.coin ? { coin: page.coin } : {}),
          ...(page.state ? { state: page.state } : {}),
        },
      }),
    cancelWithdrawal: (withdrawalId: string) => call(endpoints.cancelWithdrawal, { params: { withdrawalId } }),
    /** The member's saved withdrawal addresses (of one coin, if given), newest first, and whether the whitelist mode is on. */
    addressBook: (coin?: string) => call(endpoints.addressBook, { query: coin ? { coin } : {} }),
    /** Saves an address for a coin on a network under a label; checked as a withdrawal's address is. */
    addAddress: (body: EndpointInput<typeof endpoints.addAddress>["body"]) => call(endpoints.addAddress, { body }),
    deleteAddress: (addressId: string) => call(endpoints.deleteAddress, { params: { addressId } }),
    /** Turns the whitelist mode on or off, with a security code (and the Google code when bound). */
    setAddressWhitelist: (body: EndpointInput<typeof endpoints.addressWhitelist>["body"]) => call(endpoints.addressWhitelist, { body }),
    /** Every coin with its networks and their deposit and withdrawal rules. */
    coinNetworks: () => call(endpoints.getRechargeCurrency, {}),
    /** The member's deposit address of a coin on a network (made on first ask, the same ever after). */
    depositAddress: (coin: string, network: string) => call(endpoints.getDepositAddressWithNotEncrypt, { params: { coin }, query: { network } }),
    /** The member's deposits, newest first. */
    deposits: (page: { pageNo: number; pageSize: number; coin?: string }) =>
      call(endpoints.myDeposits, {
        query: { pageNo: String(page.pageNo), pageSize: String(page.pageSize), ...(page.coin ? { coin: page.coin } : {}) },
      }),
    /** The member's bill lines for a filter, a page of them. */
    bills: (query: { coin?: string; type?: string; account?: string; from?: string; to?: string; pageNo: number; pageSize: number }) =>
      call(endpoints.myBills, {
        query: Object.fromEntries(
          Object.entries({ ...query, pageNo: String(query.pageNo), pageSize: String(query.pageSize) }).filter(([, v]) => v !== undefined && v !== ""),
        ),
      }),
  };
}
