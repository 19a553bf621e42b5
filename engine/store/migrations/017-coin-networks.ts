import { sql, type Kysely } from "kysely";

/**
 * The wallet's coins and networks, and the deposit addresses handed out (issue 12,
 * docs/decisions/024).
 *
 * `coin_network`: per coin and network (its wire name: BTC, ERC20, TRC20, SOL, XRP, DOGE) the chain
 * it runs on, the token contract (null for a chain's own coin), the address format, the
 * confirmations a deposit waits for, the minimum deposit, the withdrawal fee and minimum, the daily
 * withdrawal limits without and with KYC, and whether deposits and withdrawals are open. Amounts
 * are NUMERIC(38,18), in the coin.
 *
 * `deposit_address`: one address per member and network (all ERC20 coins share the member's
 * address on that network), with what made it: the derivation index and the fingerprint of the
 * xpub, or the XRP destination tag. The deposit watcher finds the member of an incoming
 * transaction here, so a row is never deleted (a changed xpub leaves the old rows watched).
 *
 * The rows are seeded here, as the assets were (migration 006): a fresh install and an older one
 * both have them; an operator edits them afterwards.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table coin_network (
      coin varchar(20) not null references asset (code),
      network varchar(20) not null,
      chain varchar(20) not null,
      contract varchar(100),
      address_format varchar(20) not null check (address_format in ('bitcoin', 'evm', 'tron', 'dogecoin', 'xrp', 'solana')),
      confirmations int not null check (confirmations >= 1),
      min_deposit numeric(38, 18) not null check (min_deposit >= 0),
      withdraw_fee numeric(38, 18) not null check (withdraw_fee >= 0),
      min_withdraw numeric(38, 18) not null check (min_withdraw >= 0),
      daily_withdraw_limit numeric(38, 18) not null check (daily_withdraw_limit >= 0),
      daily_withdraw_limit_kyc numeric(38, 18) not null check (daily_withdraw_limit_kyc >= 0),
      deposit_enabled boolean not null,
      withdraw_enabled boolean not null,
      sort int not null default 0,
      primary key (coin, network)
    );
    create table deposit_address (
      network varchar(20) not null,
      member_id bigint not null references member (id),
      address varchar(100) not null,
      tag bigint check (tag between 0 and 4294967295),
      derivation_index int,
      key_fingerprint varchar(16),
      created_at timestamptz not null default now(),
      primary key (network, member_id)
    );
    create unique index deposit_address_by_address on deposit_address (network, address, coalesce(tag, -1));
  `.execute(db);
  // Realistic mainnet rules; Solana stays closed until a custody adapter gives its addresses (decision 024).
  await sql`
    insert into coin_network (coin, network, chain, contract, address_format, confirmations, min_deposit, withdraw_fee,
                              min_withdraw, daily_withdraw_limit, daily_withdraw_limit_kyc, deposit_enabled, withdraw_enabled, sort)
    select v.* from (values
      ('BTC', 'BTC', 'bitcoin', null, 'bitcoin', 2, 0.0001, 0.0002, 0.001, 2, 100, true, true, 10),
      ('ETH', 'ERC20', 'ethereum', null, 'evm', 12, 0.005, 0.002, 0.01, 50, 1000, true, true, 20),
      ('USDT', 'ERC20', 'ethereum', '0xdAC17F958D2ee523a2206206994597C13D831ec7', 'evm', 12, 10, 5, 20, 10000, 1000000, true, true, 30),
      ('USDT', 'TRC20', 'tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'tron', 20, 1, 1, 10, 10000, 1000000, true, true, 31),
      ('USDT', 'SOL', 'solana', 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', 'solana', 32, 1, 1, 10, 10000, 1000000, false, false, 32),
      ('TRX', 'TRC20', 'tron', null, 'tron', 20, 1, 1, 10, 100000, 5000000, true, true, 40),
      ('DOGE', 'DOGE', 'dogecoin', null, 'dogecoin', 6, 5, 5, 20, 100000, 5000000, true, true, 50),
      ('XRP', 'XRP', 'xrp', null, 'xrp', 1, 1, 0.25, 20, 20000, 1000000, true, true, 60),
      ('SOL', 'SOL', 'solana', null, 'solana', 32, 0.01, 0.01, 0.1, 500, 20000, false, false, 70)
    ) as v (coin, network, chain, contract, address_format, confirmations, min_deposit, withdraw_fee,
            min_withdraw, daily_withdraw_limit, daily_withdraw_limit_kyc, deposit_enabled, withdraw_enabled, sort)
    where exists (select 1 from asset where asset.code = v.coin)
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table deposit_address, coin_network`.execute(db);
}
