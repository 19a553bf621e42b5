import type { Kysely } from "kysely";
import type { Database } from "../store/schema";
import type { AddressCustody, ChainGateway, ChainId, OutsidePayer } from "./chain-gateway";
import { SimulatedChains } from "./simulated-chain";
import { simulatedCustody } from "./simulated-custody";

/** The chains as the engine holds them: the port, and an outside payer when the adapter has one. */
export interface Chains {
  gateway: ChainGateway;
  /** The operator's `chain send` (the simulated adapter only); null with real nodes. */
  outside: OutsidePayer | null;
  /** Custody that makes pooled deposit addresses (Solana) on demand: the simulated adapter's; absent with real nodes (decision 042). */
  custody?: AddressCustody | null;
}

export interface ChainSettings {
  /** Which adapter serves the port; only the embedded simulated chains exist so far (decision 025). */
  adapter: "simulated";
  blockIntervalMs?: Partial<Record<ChainId, number>>;
  reorgProbability?: number;
}

/** Starts the configured adapter; `gateway.close()` stops it. */
export async function startChains(db: Kysely<Database>, settings: ChainSettings, warn?: (message: string) => void): Promise<Chains> {
  switch (settings.adapter) {
    case "simulated": {
      const simulated = await SimulatedChains.start({ db, blockIntervalMs: settings.blockIntervalMs, reorgProbability: settings.reorgProbability, warn });
      return { gateway: simulated, outside: simulated, custody: simulatedCustody };
    }
  }
}
