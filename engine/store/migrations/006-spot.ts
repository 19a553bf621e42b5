import { sql, type Kysely } from "kysely";

/**
 * The spot exchange's durable state: assets and their scales; symbol trading rules; ledger
 * balances, open holds and the immutable transfer journal; orders, trades; and the first answer
 * to each idempotency key. Amounts are NUMERIC decimals at the asset's or symbol's scale.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table asset (
      code varchar(20) primary key,
      scale smallint not null check (scale between 0 and 18),
      name varchar(60) not null
    );

    alter table market_symbol
      add column tick_size numeric(38, 18) not null default 0.01,
      add column lot_size numeric(38, 18) not null default 0.000001,
      add column min_quantity numeric(38, 18) not null default 0.00001,
      add column maker_fee_bps integer not null default 10,
      add column taker_fee_bps integer not null default 20;

    create table ledger_account (
      id varchar(120) primary key,
      owner varchar(40) not null,
      kind varchar(12) not null,
      asset varchar(20) not null references asset (code),
      posted numeric(38, 18) not null default 0,
      held numeric(38, 18) not null default 0
    );
    create index ledger_account_owner on ledger_account (owner);

    create table ledger_hold (
      id varchar(120) primary key,
      account_id varchar(120) not null references ledger_account (id),
      asset varchar(20) not null,
      remaining numeric(38, 18) not null
    );

    create table ledger_transfer (
      seq bigserial primary key,
      id varchar(120) not null unique,
      phase varchar(8) not null,
      debit varchar(120) not null,
      credit varchar(120),
      asset varchar(20) not null,
      amount numeric(38, 18) not null,
      pending_id varchar(120),
      created_at timestamptz not null default now()
    );

    create table spot_order (
      seq bigserial primary key,
      order_id varchar(64) not null unique,
      member_id bigint not null,
      symbol varchar(40) not null,
      side varchar(4) not null,
      type varchar(6) not null,
      tif varchar(10) not null,
      price numeric(38, 18),
      quantity numeric(38, 18),
      money numeric(38, 18),
      filled numeric(38, 18) not null default 0,
      status varchar(10) not null,
      reason varchar(20),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index spot_order_open on spot_order (symbol, seq) where status = 'open';
    create index spot_order_member on spot_order (member_id, seq desc);

    create table spot_trade (
      id bigserial primary key,
      symbol varchar(40) not null,
      taker_order_id varchar(64) not null,
      maker_order_id varchar(64) not null,
      buyer bigint not null,
      seller bigint not null,
      price numeric(38, 18) not null,
      quantity numeric(38, 18) not null,
      value numeric(38, 18) not null,
      buyer_fee numeric(38, 18) not null,
      seller_fee numeric(38, 18) not null,
      taker_side varchar(4) not null,
      created_at timestamptz not null default now()
    );
    create index spot_trade_symbol on spot_trade (symbol, id desc);

    create table idempotency_key (
      member_id bigint not null,
      key varchar(64) not null,
      response text not null,
      created_at timestamptz not null default now(),
      primary key (member_id, key)
    );

    insert into asset (code, scale, name) values
      ('USDT', 8, 'Tether USD'), ('BTC', 8, 'Bitcoin'), ('ETH', 8, 'Ethereum'), ('SOL', 8, 'Solana'),
      ('XRP', 8, 'XRP'), ('DOGE', 8, 'Dogecoin'), ('TRX', 8, 'TRON');
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table idempotency_key, spot_trade, spot_order, ledger_transfer, ledger_hold, ledger_account, asset;
    alter table market_symbol drop column tick_size, drop column lot_size, drop column min_quantity,
      drop column maker_fee_bps, drop column taker_fee_bps;
  `.execute(db);
}
