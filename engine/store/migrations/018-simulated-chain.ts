import { sql, type Kysely } from "kysely";

/**
 * The embedded simulated chains (decision 025): the simulated adapter of the chain gateway keeps
 * its blocks, transactions and counters here so that confirmations continue after a restart and a
 * withdrawal broadcast twice is sent once. No other part of the engine reads these tables.
 *
 * - `sim_chain`: one row per chain; `nonce` feeds block hashes and txids (never reused).
 * - `sim_chain_block`: the main chain only (a re-org deletes the replaced blocks); old blocks are
 *   pruned. Times are milliseconds since 1970.
 * - `sim_chain_tx`: one transfer per transaction; `block_height` null while in the mempool;
 *   `dropped` for a double-spent one; `withdrawal_id` (unique) keys the exchange's broadcasts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists sim_chain (
      chain varchar(16) primary key,
      nonce bigint not null default 0
    )`.execute(db);
  await sql`
    create table if not exists sim_chain_block (
      chain varchar(16) not null,
      height bigint not null,
      hash varchar(100) not null,
      parent_hash varchar(100) not null,
      mined_at bigint not null,
      primary key (chain, height)
    )`.execute(db);
  await sql`
    create table if not exists sim_chain_tx (
      chain varchar(16) not null,
      txid varchar(100) not null,
      vout integer not null,
      to_address varchar(128) not null,
      tag varchar(20),
      asset varchar(20) not null,
      contract varchar(64),
      amount text not null,
      block_height bigint,
      dropped boolean not null default false,
      withdrawal_id varchar(64) unique,
      seq bigserial not null,
      created_at bigint not null,
      primary key (chain, txid)
    )`.execute(db);
  await sql`create index if not exists sim_chain_tx_block on sim_chain_tx (chain, block_height)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists sim_chain_tx`.execute(db);
  await sql`drop table if exists sim_chain_block`.execute(db);
  await sql`drop table if exists sim_chain`.execute(db);
}
