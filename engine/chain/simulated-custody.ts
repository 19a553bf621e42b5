import { generateKeyPairSync } from "node:crypto";
import type { ChainNetwork } from "../../protocol/endpoints/chain";
import { solanaAddress } from "../core/wallet/address-formats";
import type { AddressCustody } from "./chain-gateway";

/**
 * The simulated chains' custody (decision 042): new Solana addresses from fresh ed25519 key pairs
 * whose private keys are dropped at once. Nothing on a simulated chain needs them: its withdrawals
 * are sent by the adapter, and the engine never holds a key.
 */
export const simulatedCustody: AddressCustody = {
  newAddresses(network: ChainNetwork, count: number): string[] {
    if (network !== "SOL") throw new Error(`the simulated custody makes no ${network} addresses (they are derived from the xpub)`);
    return Array.from({ length: count }, () => {
      const { x } = generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" });
      return solanaAddress(Buffer.from(x!, "base64url"));
    });
  },
};
