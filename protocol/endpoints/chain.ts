import * as z from "zod";
import { define } from "../endpoint";
import { coinField, positiveDecimalField } from "../fields";

/** The networks (wire codes) deposits and withdrawals travel on; each lives on one chain (decision 025). */
export const CHAIN_NETWORKS = ["BTC", "ERC20", "TRC20", "DOGE", "XRP", "SOL"] as const;
export type ChainNetwork = (typeof CHAIN_NETWORKS)[number];

/** An address as a chain writes it (letters and digits; the chain's own rules are the wallet's checks). */
const addressField = z.string().regex(/^[A-Za-z0-9]{20,100}$/, "must be a chain address");

/** Operator calls on the chains (not in the spec). Need the admin token. */
export const chainEndpoints = {
  /**
   * An outside sender pays into an address (the simulated chains only: with a real node the payer is
   * someone's wallet). The network defaults to the coin's own chain (BTC, ETH → ERC20, TRX → TRC20,
   * DOGE, XRP, SOL); USDT needs one. Answers the transaction.
   */
  adminChainSend: define({
    method: "POST",
    path: "/admin/chain/send",
    operator: "chain.send",
    absolute: true,
    body: z.object({
      address: addressField,
      coin: coinField,
      amount: positiveDecimalField,
      network: z.enum(CHAIN_NETWORKS).optional(),
      tag: z
        .string()
        .regex(/^\d{1,10}$/, "must be a number")
        .optional(),
    }),
    response: z.object({
      network: z.enum(CHAIN_NETWORKS),
      chain: z.string(),
      txid: z.string(),
      index: z.number(),
      toAddress: z.string(),
      tag: z.string().nullable(),
      coin: z.string(),
      amount: z.string(),
    }),
  }),
  /** Each chain's tip. */
  adminChainStatus: define({
    method: "GET",
    path: "/admin/chain/status",
    operator: "dashboard.read",
    absolute: true,
    response: z.array(
      z.object({
        chain: z.string(),
        networks: z.array(z.enum(CHAIN_NETWORKS)),
        height: z.number(),
        hash: z.string(),
        time: z.number(),
      }),
    ),
  }),
} as const;
