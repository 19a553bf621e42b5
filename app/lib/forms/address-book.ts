// Bundling only (the page's modules, for where the browser build puts them): schema-bundle.ts.
import "./schema-bundle";
import * as z from "zod";
import { labelField } from "#protocol/endpoints/address-book";
import { addressField, memoField } from "#protocol/endpoints/wallet";
import { COIN_SOURCE } from "#protocol/fields";
import { codeField } from "#protocol/member";

/**
 * The address book's forms (decision 029). An address's format and checksum are the engine's to
 * check (engine/core/wallet/address-formats.ts, not shipped to the browser); here it is only
 * letters and digits, as every network the exchange carries writes them, and the engine's
 * refusal names the network when the format is wrong.
 */

/** The coin and network an address is saved for, one choice: `USDT:TRC20` (a network is written as a coin is). */
export const COIN_NETWORK_PATTERN = new RegExp(`^${COIN_SOURCE}:${COIN_SOURCE}$`);
const ADDRESS_CHARACTERS = /^[A-Za-z0-9]+$/;

export const addAddressSchema = z.object({
  coinNetwork: z.string({ message: "wallet.address_book.coin_network_required" }).regex(COIN_NETWORK_PATTERN, "wallet.address_book.coin_network_required"),
  address: z.string({ message: "validation.address" }).pipe(addressField.regex(ADDRESS_CHARACTERS, "validation.address")),
  /** A destination tag (XRP): digits; empty when the network takes none. */
  memo: memoField.regex(/^\d{1,10}$/, "validation.tag").optional(),
  label: z.string({ message: "validation.label" }).pipe(labelField),
});
export type AddAddressForm = z.output<typeof addAddressSchema>;

/** Splits the form's `USDT:TRC20` into its coin and network. */
export function splitCoinNetwork(value: string): { coin: string; network: string } {
  const [coin = "", network = ""] = value.split(":");
  return { coin, network };
}

/**
 * Turning the whitelist mode on or off (`enabled`: the state asked for): a security code, and the
 * Google code when 2FA is bound.
 */
export function whitelistSchema(googleBound: boolean) {
  const code = z.string({ message: "validation.code" }).pipe(codeField);
  return z.object({
    enabled: z.enum(["on", "off"]),
    code,
    googleCode: googleBound ? code : code.optional(),
  });
}
