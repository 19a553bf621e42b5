import type { Kysely } from "kysely";
import { CHAIN_NETWORKS, type ChainNetwork } from "../../protocol/endpoints/chain";
import { ChainRefusal, type ChainGateway } from "../chain/chain-gateway";
import type { Database } from "../store/schema";
import type { WithdrawalService } from "./withdrawal-service";

const isChainNetwork = (value: string | null): value is ChainNetwork => (CHAIN_NETWORKS as readonly string[]).includes(value ?? "");

/**
 * Sends approved withdrawals and completes them once confirmed (issue 12). Each pass: every
 * approved withdrawal is handed to its chain (`broadcast`, idempotent by the withdrawal's id,
 * so a crash between the chain's answer and the journaled `broadcast` step sends nothing twice:
 * the next pass gets the same txid back), then journaled as broadcast (the money leaves the
 * ledger); every broadcast one whose transaction has the network's confirmations is completed.
 * One that the chain refuses (its amount or address) stays approved and is logged for an operator.
 * The chain call and the journaled step go through `WithdrawalService.send`, so an operator's
 * rejection of the same withdrawal never lands between them (decision 028).
 */
export class WithdrawalSender {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly withdrawals: WithdrawalService,
    private readonly gateway: ChainGateway,
    private readonly log: { warn: (obj: object, msg: string) => void } = { warn: () => undefined },
    private readonly faults: {
      /**
       * Test-only fault injection: called right after a chain took a withdrawal and before its
       * `broadcast` step is journaled (the crash test kills the process here). Never set in production.
       */
      afterChainTook?: (withdrawalId: string) => void;
    } = {},
  ) {}

  /** One pass; answers how many were sent and completed. */
  async pass(): Promise<{ sent: number; completed: number }> {
    let sent = 0;
    let completed = 0;
    for (const w of await this.withdrawals.inState("approved", { current: false })) {
      if (!isChainNetwork(w.network) || !w.address) {
        this.log.warn({ withdrawal: w.id, network: w.network }, "an approved withdrawal names no network the gateway serves");
        continue;
      }
      try {
        const network = w.network;
        const address = w.address;
        const code = await this.withdrawals.send(w.id, async () => {
          const { txid } = await this.gateway
            .nodeFor(network)
            .broadcast({ withdrawalId: w.id, toAddress: address, tag: w.memo, asset: w.coin, amount: w.amount });
          this.faults.afterChainTook?.(w.id);
          return txid;
        });
        // Not OK: no longer approved since the list was read (rejected, or sent by the last pass); the chain was not asked.
        if (code === "OK") sent++;
      } catch (error) {
        if (!(error instanceof ChainRefusal)) throw error;
        this.log.warn({ withdrawal: w.id, err: error.message }, "the chain refused a withdrawal; it stays approved for an operator");
      }
    }
    for (const w of await this.withdrawals.inState("broadcast", { current: false })) {
      if (!isChainNetwork(w.network) || !w.txid) continue;
      const [status, rule] = await Promise.all([
        this.gateway.nodeFor(w.network).status(w.txid),
        this.db.selectFrom("coin_network").select("confirmations").where("coin", "=", w.coin).where("network", "=", w.network).executeTakeFirst(),
      ]);
      if (status.state === "confirmed" && status.confirmations >= (rule?.confirmations ?? 1)) {
        if ((await this.withdrawals.complete(w.id)) === "OK") completed++;
      } else if (status.state === "dropped") {
        this.log.warn({ withdrawal: w.id, txid: w.txid }, "a sent withdrawal's transaction was dropped; it needs an operator");
      }
    }
    return { sent, completed };
  }
}
