import { sql, type Kysely } from "kysely";
import type { Database } from "../store/schema";

/** A transaction the simulated chains hold for a withdrawal (their own table, migration 018). */
export interface SimChainTx {
  chain: string;
  txid: string;
  to_address: string;
  asset: string;
  amount: string;
  dropped: boolean;
  withdrawal_id: string;
}

/**
 * Every transaction the simulated chains hold for withdrawals (one withdrawal's when `id` is
 * given), oldest first: what the tests count to prove a withdrawal went out exactly once.
 */
export async function simChainWithdrawals(db: Kysely<Database>, id?: string): Promise<SimChainTx[]> {
  const { rows } = await sql<SimChainTx>`
    select chain, txid, to_address, asset, amount, dropped, withdrawal_id from sim_chain_tx
    where withdrawal_id is not null ${id === undefined ? sql`` : sql`and withdrawal_id = ${id}`}
    order by seq`.execute(db);
  return rows;
}
