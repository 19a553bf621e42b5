import type { ChainNetwork } from "../../protocol/endpoints/chain";

/**
 * The chain gateway port (decision 025): everything the exchange's deposit watcher and withdrawal
 * sender may know about the blockchains. One `ChainNode` per chain, as a real adapter holds one
 * node connection per chain (bitcoind, an EVM JSON-RPC node, a TRON full node, rippled, …).
 * Nothing outside an adapter knows which adapter is plugged in, or that a chain is simulated.
 *
 * Amounts are decimal strings in the asset's whole units ("0.000000000000000001" ETH), never JS
 * numbers; heights are safe integers (no chain is near 2^53 blocks).
 */

/** The chains a node connection serves. A network (wire code) lives on one chain. */
export type ChainId = "bitcoin" | "ethereum" | "tron" | "dogecoin" | "xrp" | "solana";

/** A block of the main chain: a watcher keeps the last one it read and checks it is still there. */
export interface BlockRef {
  height: number;
  hash: string;
  /** The previous block's hash: a block whose parent is not the watcher's last hash means a re-org. */
  parentHash: string;
  /** Block time, milliseconds since 1970. */
  time: number;
}

/** One payment to one address inside a transaction: a UTXO output, a native transfer or a token Transfer log. */
export interface ChainTransfer {
  txid: string;
  /** The output index (UTXO chains) or the log index (token transfers); 0 for account-chain native transfers. (txid, index) is unique. */
  index: number;
  toAddress: string;
  /** Destination tag (XRP) or memo, when the transfer carries one. */
  tag: string | null;
  /** The exchange's coin code: BTC, ETH, USDT, TRX, DOGE, XRP, SOL. */
  asset: string;
  /** The token contract (ERC20/TRC20); null for the chain's native coin. */
  contract: string | null;
  /** Exact decimal string in whole units. */
  amount: string;
}

export interface ChainBlock extends BlockRef {
  transfers: ChainTransfer[];
}

/** Where a transaction stands, as the node sees it now. */
export type TxState =
  /** Not known to the node (never seen, or forgotten after it left the mempool). */
  | "unknown"
  /** In the mempool, not in a block. */
  | "pending"
  /** In a block of the main chain; `confirmations` ≥ 1 (1 = in the tip). */
  | "confirmed"
  /** Replaced by a conflicting transaction (double-spent): it will never confirm. */
  | "dropped";

export interface TxStatus {
  txid: string;
  state: TxState;
  confirmations: number;
  /** The block that holds it, when confirmed. */
  block: { height: number; hash: string } | null;
}

/** A withdrawal the exchange asks a chain to send; the id is the exchange's own, unique forever. */
export interface WithdrawalOrder {
  withdrawalId: string;
  toAddress: string;
  tag?: string | null;
  asset: string;
  amount: string;
}

export interface Broadcast {
  txid: string;
  /** True when this withdrawal id was broadcast before: the first txid is answered and nothing is sent. */
  alreadySent: boolean;
}

/** Refusals of the port (unknown asset, an amount finer than the asset's decimals, a withdrawal id reused for another payment). */
export class ChainRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ChainRefusal";
  }
}

/** One chain, as a deposit watcher and a withdrawal sender see it. */
export interface ChainNode {
  readonly chain: ChainId;
  /** The networks (wire codes) on this chain, e.g. ethereum: ERC20. */
  readonly networks: readonly ChainNetwork[];
  /** The main chain's tip. */
  tip(): Promise<BlockRef>;
  /** The main chain's block at a height (null above the tip or below what the node keeps): compare its hash with the one you saw. */
  blockAt(height: number): Promise<BlockRef | null>;
  /** Main-chain blocks from `height` upwards (at most `limit`), each with its transfers to any address, in order. */
  blocksFrom(height: number, limit?: number): Promise<ChainBlock[]>;
  /** The transaction's state and confirmations (tip height − block height + 1 when confirmed). */
  status(txid: string): Promise<TxStatus>;
  /**
   * Sends a withdrawal, idempotent by `withdrawalId`: a second call with the same id (also after a
   * restart) answers the first txid and sends nothing. The same id with other details is refused.
   */
  broadcast(order: WithdrawalOrder): Promise<Broadcast>;
  /**
   * The transaction this node took for a withdrawal, if it ever took one (also when the engine that
   * asked stopped before recording the answer); null when it never did. A withdrawal a chain holds
   * has left: it must not be rejected and its money given back (decision 028).
   */
  sent(withdrawalId: string): Promise<{ txid: string } | null>;
}

/** The port: one node per chain. */
export interface ChainGateway {
  readonly chains: readonly ChainId[];
  node(chain: ChainId): ChainNode;
  /** The node serving a network (ERC20 → ethereum). */
  nodeFor(network: ChainNetwork): ChainNode;
  /** Stops timers and connections; in-flight calls finish first. */
  close(): Promise<void>;
}

/**
 * A payer outside the exchange (the operator's `chain send`). Only an adapter that can pay from
 * outside offers it (the simulated one); with a real node the payer is someone's wallet.
 */
export interface OutsidePayer {
  pay(payment: { network: ChainNetwork; toAddress: string; asset: string; amount: string; tag?: string | null }): Promise<ChainTransfer>;
}

/**
 * Custody that makes deposit addresses on demand, for the chains whose addresses cannot be derived
 * from a watch-only key (Solana; decision 042). Only an adapter whose chains hold no real money
 * has one (the simulated one, which makes a key pair and keeps only its public key); with real
 * nodes, custody makes the keys offline and an operator imports their addresses.
 */
export interface AddressCustody {
  /** `count` new addresses of the network (that no one was given before). */
  newAddresses(network: ChainNetwork, count: number): string[];
}
