import { sql, type Kysely } from "kysely";

/**
 * A member's bills (docs/decisions/026-bills.md): the ledger transfers that are not a spot
 * order's hold, its payments or its release (deposits, withdrawals, transfers between a member's
 * accounts), by the owner of the debit and of the credit account, newest first. Trades (nearly
 * every transfer) are left out of both indexes, so a trade's rows cost no index entry here; the
 * bills read trades from spot_trade's buyer and seller indexes (migration 010). The predicate is
 * repeated word for word by the query (engine/wallet/bill-service.ts).
 * NOTE: on a large live database, create these `concurrently` by hand first (see migration 010).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index if not exists ledger_transfer_bill_debit on ledger_transfer (split_part(debit, '/', 1), seq desc)
      where phase in ('posted', 'post') and coalesce(pending_id, id) not like 'hold:%';
    create index if not exists ledger_transfer_bill_credit on ledger_transfer (split_part(credit, '/', 1), seq desc)
      where phase in ('posted', 'post') and coalesce(pending_id, id) not like 'hold:%';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists ledger_transfer_bill_debit, ledger_transfer_bill_credit`.execute(db);
}
