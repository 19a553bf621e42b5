/**
 * The deposit and withdrawal networks the exchange knows (docs/decisions/024), by their wire
 * names. Each network runs on one chain, and each chain has one address format; a coin may be
 * carried on several networks (USDT on ERC20 and TRC20).
 */
export const NETWORKS = ["BTC", "ERC20", "TRC20", "SOL", "XRP", "DOGE"] as const;
export type Network = (typeof NETWORKS)[number];

/** How a chain's addresses are written (the `address_format` column of `coin_network`). */
export const ADDRESS_FORMATS = ["bitcoin", "evm", "tron", "dogecoin", "xrp", "solana"] as const;
export type AddressFormat = (typeof ADDRESS_FORMATS)[number];

export function isNetwork(value: string): value is Network {
  return (NETWORKS as readonly string[]).includes(value);
}

export function isAddressFormat(value: string): value is AddressFormat {
  return (ADDRESS_FORMATS as readonly string[]).includes(value);
}

/** The largest XRP destination tag: an unsigned 32-bit integer. */
export const MAX_DESTINATION_TAG = 0xffff_ffff;
