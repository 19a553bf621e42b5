import { sql, type Kysely } from "kysely";

/**
 * The deposit-address pool of the chains without public derivation (Solana; decision 042), and
 * SOL deposits and withdrawals switched on.
 *
 * `deposit_address_pool`: one row per address custody handed over (`import`: the operator's file)
 * or the simulated chains' custody made (`adapter`), per network. A free row has no member; a
 * member's first request takes the oldest free one for good (`member_id`, `assigned_at`, and the
 * member's `deposit_address` row in the same transaction). A row is never deleted or freed again:
 * the watcher finds deposits through `deposit_address`, and custody reconciles its keys with this
 * table. An address is in a network's pool once, and a member holds at most one of its addresses.
 *
 * USDT on SOL stays off: the chains here do not carry it (engine/chain/networks.ts).
 *
 * `member_notice.order_code` takes 200 characters (was 100): a SOL deposit's notice names the
 * deposit (`chain:solana:<txid>:<index>`, up to 103 characters with a Solana signature of 88), and
 * a longer value failed the projection's write, which stops the engine.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table deposit_address_pool (
      id bigserial primary key,
      network varchar(20) not null,
      address varchar(100) not null,
      source varchar(10) not null check (source in ('import', 'adapter')),
      added_at timestamptz not null default now(),
      member_id bigint references member (id),
      assigned_at timestamptz,
      check ((member_id is null) = (assigned_at is null)),
      unique (network, address)
    );
    create unique index deposit_address_pool_member on deposit_address_pool (network, member_id) where member_id is not null;
    create index deposit_address_pool_free on deposit_address_pool (network, id) where member_id is null;
  `.execute(db);
  await sql`alter table member_notice alter column order_code type varchar(200)`.execute(db);
  await sql`update coin_network set deposit_enabled = true, withdraw_enabled = true where coin = 'SOL' and network = 'SOL'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update coin_network set deposit_enabled = false, withdraw_enabled = false where coin = 'SOL' and network = 'SOL'`.execute(db);
  await sql`drop table deposit_address_pool`.execute(db);
  // order_code stays 200 wide: SOL deposits' notices may hold longer values by now.
}
