import * as z from "zod";
import { ACCOUNTS, OPEN_ACCOUNT_CODES } from "../accounts";
import { define } from "../endpoint";
import { coinField } from "../fields";
import { decimalString, unsignedDecimalString } from "../money";

/**
 * A member's assets overview (spec §7 "Wallet and margin": `assets/getWalletAccount`,
 * `assets/getCurrencyAccount`, `wallet/contract/transferable/{x}`; §3 "Wallet account": type 0
 * is the total, type 8 only for merchants). Values are in USDT at each coin's last trade price
 * (engine/core/wallet/valuation.ts); a coin without a USDT market has no value (null) and adds
 * nothing to a total.
 */
const accountCodes = Object.keys(ACCOUNTS) as [keyof typeof ACCOUNTS, ...Array<keyof typeof ACCOUNTS>];

export const assetsEndpoints = {
  /** Each of the member's accounts valued in USDT, and type 0 their total; type 8 for merchants only. */
  walletAccounts: define({
    method: "GET",
    path: "coin/assets/getWalletAccount",
    response: z.array(z.object({ type: z.enum(accountCodes), usdt: unsignedDecimalString })),
  }),
  /** One account's coins: available, frozen and their value in USDT (null without a price); the contract account's with their positions' margin and profit. */
  currencyAccount: define({
    method: "POST",
    path: "coin/assets/getCurrencyAccount",
    query: z.object({ type: z.enum(OPEN_ACCOUNT_CODES, { message: "must be 1 (funding), 2 (spot) or 4 (contract)" }) }),
    response: z.array(
      z.object({
        coin: z.string(),
        name: z.string(),
        /** Decimals the coin is kept to (an amount with more is refused). */
        scale: z.number().int(),
        available: unsignedDecimalString,
        frozen: unsignedDecimalString,
        /** The value of what the coin's balance holds, with (contract account) its positions' margin. */
        usdt: unsignedDecimalString.nullable(),
        /** The contract account only: the margin its positions settling in the coin hold, and their unrealised profit at the mark. */
        margin: unsignedDecimalString.optional(),
        unrealised: decimalString.optional(),
      }),
    ),
  }),
  /** What can leave the contract account in a coin now (its available balance; open positions will hold margin). */
  contractTransferable: define({
    method: "GET",
    path: "coin/wallet/contract/transferable/:coin",
    params: z.object({ coin: coinField }),
    response: z.object({ coin: z.string(), transferable: unsignedDecimalString }),
  }),
};
