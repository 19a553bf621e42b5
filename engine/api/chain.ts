import { endpoints } from "../../protocol/endpoints";
import type { ChainNetwork } from "../../protocol/endpoints/chain";
import { ChainRefusal } from "../chain/chain-gateway";
import { CHAIN_OF_NETWORK, NATIVE_NETWORK } from "../chain/networks";
import type { Chains } from "../chain/start-chain";
import { ApiError } from "./api-error";
import type { ApiContext } from "./context";
import { operatorEndpoint } from "./operator-endpoint";

/** Operator calls on the chains (decision 025): an outside sender's payment, and each chain's tip. */
export function registerChainRoutes(api: ApiContext, chains: Chains): void {
  operatorEndpoint(api, endpoints.adminChainSend, async ({ body, act, now }) => {
    const outside = chains.outside;
    if (!outside) throw ApiError.badRequest("this engine's chains are real: pay from a wallet");
    const network: ChainNetwork | undefined = body.network ?? NATIVE_NETWORK[body.coin];
    if (!network) throw ApiError.badRequest(`${body.coin} travels on several networks: give --network`);
    try {
      const transfer = await outside.pay({ network, toAddress: body.address, asset: body.coin, amount: body.amount, tag: body.tag ?? null });
      // The payment is on the (simulated) chain, outside the database: its audit row follows it.
      await api.operators.recordAlone(
        act,
        `address:${transfer.toAddress}`,
        null,
        { network, coin: transfer.asset, amount: transfer.amount, txid: transfer.txid },
        now,
      );
      return {
        network,
        chain: CHAIN_OF_NETWORK[network],
        txid: transfer.txid,
        index: transfer.index,
        toAddress: transfer.toAddress,
        tag: transfer.tag,
        coin: transfer.asset,
        amount: transfer.amount,
      };
    } catch (error) {
      if (error instanceof ChainRefusal) throw ApiError.badRequest(error.message);
      throw error;
    }
  });

  operatorEndpoint(api, endpoints.adminChainStatus, async () =>
    Promise.all(
      chains.gateway.chains.map(async (chain) => {
        const node = chains.gateway.node(chain);
        const tip = await node.tip();
        return { chain, networks: [...node.networks], height: tip.height, hash: tip.hash, time: tip.time };
      }),
    ),
  );
}
