import type { ChainNetwork } from "../../protocol/endpoints/chain";
import { ChainRefusal, type ChainId } from "./chain-gateway";

/** An asset as a chain carries it: its decimals on chain and, for a token, its contract. */
export interface ChainAsset {
  decimals: number;
  contract: string | null;
}

export interface ChainInfo {
  id: ChainId;
  networks: readonly ChainNetwork[];
  /** Transfers may carry a destination tag (XRP). */
  tags: boolean;
  /** Assets by coin code. */
  assets: Readonly<Record<string, ChainAsset>>;
}

/** What lives on each chain (the mainnet contracts of USDT). */
export const CHAINS: Readonly<Record<ChainId, ChainInfo>> = {
  bitcoin: { id: "bitcoin", networks: ["BTC"], tags: false, assets: { BTC: { decimals: 8, contract: null } } },
  ethereum: {
    id: "ethereum",
    networks: ["ERC20"],
    tags: false,
    assets: { ETH: { decimals: 18, contract: null }, USDT: { decimals: 6, contract: "0xdAC17F958D2ee523a2206206994597C13D831ec7" } },
  },
  tron: {
    id: "tron",
    networks: ["TRC20"],
    tags: false,
    assets: { TRX: { decimals: 6, contract: null }, USDT: { decimals: 6, contract: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" } },
  },
  dogecoin: { id: "dogecoin", networks: ["DOGE"], tags: false, assets: { DOGE: { decimals: 8, contract: null } } },
  xrp: { id: "xrp", networks: ["XRP"], tags: true, assets: { XRP: { decimals: 6, contract: null } } },
  solana: { id: "solana", networks: ["SOL"], tags: false, assets: { SOL: { decimals: 9, contract: null } } },
};

export const CHAIN_IDS = Object.keys(CHAINS) as ChainId[];

/** The chain a network lives on. */
export const CHAIN_OF_NETWORK: Readonly<Record<ChainNetwork, ChainId>> = {
  BTC: "bitcoin",
  ERC20: "ethereum",
  TRC20: "tron",
  DOGE: "dogecoin",
  XRP: "xrp",
  SOL: "solana",
};

/** A coin's own network, when it has exactly one (USDT has several: the sender names one). */
export const NATIVE_NETWORK: Readonly<Record<string, ChainNetwork>> = {
  BTC: "BTC",
  ETH: "ERC20",
  TRX: "TRC20",
  DOGE: "DOGE",
  XRP: "XRP",
  SOL: "SOL",
};

/**
 * The canonical text of a positive amount of `asset` on `chain` ("1.50" → "1.5"), or a refusal:
 * an unknown asset on that chain, a malformed or non-positive amount, more decimals than the chain has.
 */
export function chainAmount(chain: ChainId, asset: string, amount: string): { asset: ChainAsset; amount: string } {
  const info = CHAINS[chain].assets[asset];
  if (!info) throw new ChainRefusal(`${asset} is not carried on ${chain}`);
  const match = /^(\d{1,30})(?:\.(\d{1,40}))?$/.exec(amount);
  if (!match) throw new ChainRefusal(`amount ${amount} is not a decimal`);
  const whole = match[1]!.replace(/^0+(?=\d)/, "");
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (fraction.length > info.decimals) throw new ChainRefusal(`${asset} on ${chain} has ${info.decimals} decimals; ${amount} has more`);
  if (!/[1-9]/.test(whole + fraction)) throw new ChainRefusal("amount must be above zero");
  return { asset: info, amount: fraction ? `${whole}.${fraction}` : whole };
}
