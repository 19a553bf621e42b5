import * as z from "zod";
import { define } from "../endpoint";
import { coinField } from "../fields";

/**
 * The wallet's coins and networks and the members' deposit addresses (spec §7 "Wallet and margin":
 * assets/getRechargeCurrency, assets/getDepositAddressWithNotEncrypt/{coin}; docs/decisions/024).
 * Amounts are decimal strings in the coin.
 */

/** A network's wire name: BTC, ERC20, TRC20, SOL, XRP, DOGE (letters and digits, as a coin). */
export const NETWORK_PATTERN = /^[A-Z0-9]{1,20}$/;
export const networkField = z.string().regex(NETWORK_PATTERN, "validation.network");
/** A destination address as typed (its network's format and checksum are the engine's to check: decision 024). */
export const addressField = z.string().trim().min(1, "validation.address").max(128, "validation.address");
/** A destination tag or memo beside the address (XRP); what a network accepts is the engine's to check. */
export const memoField = z.string().trim().max(64, "validation.memo");

const amount = z.string();

/** One network a coin is carried on, and its deposit and withdrawal rules. */
export const coinNetworkSchema = z.object({
  network: z.string(),
  /** The chain the network runs on: bitcoin, ethereum, tron, solana, xrp, dogecoin. */
  chain: z.string(),
  /** The token's contract (mint on Solana); null for the chain's own coin. */
  contract: z.string().nullable(),
  /** Whether a deposit needs a destination tag beside the address (XRP). */
  needsTag: z.boolean(),
  /** Decimals the coin has on this network's chain (USDT: 6 on TRC20 and ERC20): a withdrawal carries no more. Null when not known. */
  decimals: z.number().int().nullable(),
  /** Confirmations before a deposit is credited. */
  confirmations: z.number().int(),
  minDeposit: amount,
  withdrawFee: amount,
  minWithdraw: amount,
  /** Most a member may withdraw in a day, without identity verification and with it. */
  dailyWithdrawLimit: amount,
  dailyWithdrawLimitKyc: amount,
  depositEnabled: z.boolean(),
  withdrawEnabled: z.boolean(),
});
export type CoinNetwork = z.infer<typeof coinNetworkSchema>;

export const rechargeCurrencySchema = z.object({
  coin: z.string(),
  name: z.string(),
  networks: z.array(coinNetworkSchema),
});
export type RechargeCurrency = z.infer<typeof rechargeCurrencySchema>;

export const depositAddressSchema = z.object({
  coin: z.string(),
  network: z.string(),
  address: z.string(),
  /** The member's destination tag on networks that need one (XRP): a deposit without it cannot be credited. */
  tag: z.number().int().nullable(),
  confirmations: z.number().int(),
  minDeposit: amount,
});
export type DepositAddress = z.infer<typeof depositAddressSchema>;

/** A deposit-address pool's level (decision 042): free addresses, those given out, and the low mark. */
export const addressPoolLevelSchema = z.object({
  network: z.string(),
  free: z.number().int(),
  assigned: z.number().int(),
  lowWater: z.number().int(),
  low: z.boolean(),
});
export type AddressPoolLevel = z.infer<typeof addressPoolLevelSchema>;

export const walletEndpoints = {
  /**
   * The coins a member can deposit or withdraw, each with its networks and their rules, in the
   * exchange's order. Public: a deposit page, a fee page or an app shows it before a login.
   */
  getRechargeCurrency: define({
    method: "GET",
    path: "coin/assets/getRechargeCurrency",
    response: z.array(rechargeCurrencySchema),
  }),
  /**
   * The member's deposit address of a coin on a network (`?network=ERC20`): the same every time;
   * with the tag on XRP. Refused (400, DEPOSIT_NETWORK_UNKNOWN or DEPOSIT_DISABLED) when the coin
   * is not carried on the network or its deposits are switched off; on a network whose addresses
   * come from custody's pool (SOL; decision 042), 400 DEPOSIT_ADDRESS_POOL_EMPTY when none is free.
   */
  getDepositAddressWithNotEncrypt: define({
    method: "GET",
    path: "coin/assets/getDepositAddressWithNotEncrypt/:coin",
    params: z.object({ coin: coinField }),
    query: z.object({ network: networkField }),
    response: depositAddressSchema,
  }),
  /**
   * Operator: custody's addresses for a network's pool (decision 042), as the text of its file (one
   * address per line; blank lines and `#` comments skipped; `firstLine` numbers the text's first
   * line when it is a part of a longer file). All or nothing: an address that fails its format's
   * check refuses the import (400 ADDRESS_INVALID, naming the lines); addresses already pooled or
   * given out are skipped.
   */
  adminAddressPoolImport: define({
    method: "POST",
    path: "/admin/address-pool/import",
    operator: "deposits.credit",
    absolute: true,
    body: z.object({
      network: networkField,
      text: z.string().max(800_000, "must be at most 800,000 characters: send a long file in parts"),
      firstLine: z.number().int().min(1).default(1),
    }),
    response: z.object({ network: z.string(), added: z.number().int(), skipped: z.number().int(), level: addressPoolLevelSchema }),
  }),
  /** Operator: how many addresses each pooled network (or the one asked for) has free and given out; `low` below its low mark. */
  adminAddressPoolLevel: define({
    method: "GET",
    path: "/admin/address-pool",
    operator: "deposits.read",
    absolute: true,
    query: z.object({ network: networkField.optional() }),
    response: z.array(addressPoolLevelSchema),
  }),
} as const;
