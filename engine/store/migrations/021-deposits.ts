import { sql, type Kysely } from "kysely";

/**
 * Deposits from the chains (issue 12, docs/decisions/027), written by the deposit watcher.
 *
 * `deposit_watch`: per chain the last block the watcher has read (height and hash), its bookmark.
 * `deposit_watch_block`: the hashes of the blocks it read recently (the last 1,000 per chain), so
 * that after a re-org it can walk back to the block both chains share.
 * `wallet_deposit`: one row per transfer to a member's deposit address, id
 * `chain:<chain>:<txid>:<index>` (the same id the ledger's credit carries), with where it stands:
 * `confirming`, `credited`, `below_minimum`, `unsupported` (coin or network not carried, another
 * token contract, or deposits switched off) or `dropped` (its block was orphaned before it was
 * credited; a later block holding it again brings it back).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists deposit_watch (
      chain varchar(20) primary key,
      height bigint not null,
      hash varchar(128) not null,
      updated_at timestamptz not null
    );
    create table if not exists deposit_watch_block (
      chain varchar(20) not null,
      height bigint not null,
      hash varchar(128) not null,
      primary key (chain, height)
    );
    create table if not exists wallet_deposit (
      id varchar(120) primary key,
      seq bigserial not null,
      chain varchar(20) not null,
      network varchar(20) not null,
      member_id bigint not null,
      coin varchar(20) not null,
      address varchar(128) not null,
      tag varchar(64),
      amount numeric(38, 18) not null,
      txid varchar(128) not null,
      vout int not null,
      block_height bigint,
      block_hash varchar(128),
      confirmations int not null default 0,
      required int,
      state varchar(16) not null check (state in ('confirming', 'credited', 'below_minimum', 'unsupported', 'dropped')),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      credited_at timestamptz
    );
    create index if not exists wallet_deposit_member on wallet_deposit (member_id, seq desc);
    create index if not exists wallet_deposit_confirming on wallet_deposit (chain) where state = 'confirming';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists wallet_deposit, deposit_watch_block, deposit_watch`.execute(db);
}
