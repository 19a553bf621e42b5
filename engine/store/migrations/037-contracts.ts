import { sql, type Kysely } from "kysely";

/**
 * Perpetual contracts (issue 30, decisions 045 and 046). `contract_symbol` is each contract's
 * configuration, kept by operators (decimals as people read them: a tick of 0.1, a maintenance
 * rate of 0.004, a price band of 0.05), and the price loop's state the projection keeps current
 * (index, mark, the basis and premium the mark and funding are computed from, the next funding
 * time, an uncovered deficit). The rest is the projection of the contract commands: open and
 * ended orders (an open one with what its hold still keeps), positions (the insurance fund's
 * taken-over one among them, owner `@insurance`), members' chosen leverages, trades with each
 * side's fill, funding paid and received, liquidations and deleveragings. Member ids are text:
 * the fund's position is the exchange's own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table contract_symbol (
      symbol varchar(40) primary key,
      base varchar(20) not null,
      quote varchar(20) not null,
      settle_asset varchar(20) not null references asset (code),
      kind varchar(8) not null check (kind in ('linear', 'inverse')),
      price_scale smallint not null check (price_scale between 0 and 12),
      multiplier numeric(38, 18) not null check (multiplier > 0),
      tick_size numeric(38, 18) not null check (tick_size > 0),
      min_qty bigint not null check (min_qty >= 1),
      max_qty bigint not null,
      maker_fee_bps integer not null,
      taker_fee_bps integer not null,
      price_band numeric(10, 8) not null,
      default_leverage smallint not null,
      impact_qty bigint not null,
      tiers jsonb not null,
      index_sources text[] not null,
      halted boolean not null default false,
      sort integer not null default 0,
      index_price numeric(38, 18),
      mark_price numeric(38, 18),
      basis numeric(38, 18),
      premium_sum numeric(38, 0),
      premium_count integer,
      next_funding_at bigint,
      deficit numeric(38, 18) not null default 0
    );

    create table contract_order (
      order_id varchar(64) primary key,
      seq bigint not null,
      member_id varchar(40) not null,
      symbol varchar(40) not null,
      side varchar(4) not null,
      action varchar(5) not null,
      type varchar(6) not null,
      tif varchar(10) not null,
      price numeric(38, 18),
      hold_price numeric(38, 18) not null,
      quantity bigint not null,
      filled bigint not null default 0,
      leverage smallint not null,
      margin_left numeric(38, 18) not null default 0,
      fee_left numeric(38, 18) not null default 0,
      status varchar(10) not null,
      reason varchar(20),
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index contract_order_member on contract_order (member_id, seq desc);
    create index contract_order_open on contract_order (symbol, seq) where status = 'open';

    create table contract_position (
      symbol varchar(40) not null,
      member_id varchar(40) not null,
      side varchar(5) not null,
      qty bigint not null check (qty > 0),
      cost numeric(38, 18) not null,
      margin numeric(38, 18) not null,
      leverage smallint not null,
      updated_at timestamptz not null,
      primary key (member_id, symbol)
    );

    create table contract_leverage (
      member_id varchar(40) not null,
      symbol varchar(40) not null,
      leverage smallint not null,
      primary key (member_id, symbol)
    );

    create table contract_trade (
      id varchar(40) primary key,
      seq bigint not null,
      symbol varchar(40) not null,
      price numeric(38, 18) not null,
      qty bigint not null,
      taker_side varchar(4) not null,
      created_at timestamptz not null
    );
    create index contract_trade_symbol on contract_trade (symbol, seq desc);

    create table contract_fill (
      trade_id varchar(40) not null,
      order_id varchar(64) not null,
      member_id varchar(40) not null,
      symbol varchar(40) not null,
      side varchar(4) not null,
      action varchar(5) not null,
      liquidity varchar(5) not null,
      price numeric(38, 18) not null,
      qty bigint not null,
      fee numeric(38, 18) not null,
      realised numeric(38, 18) not null,
      created_at timestamptz not null,
      primary key (trade_id, order_id)
    );
    create index contract_fill_member on contract_fill (member_id, created_at desc);

    create table contract_funding (
      id bigserial primary key,
      seq bigint not null,
      symbol varchar(40) not null,
      member_id varchar(40) not null,
      rate numeric(20, 8) not null,
      mark numeric(38, 18) not null,
      amount numeric(38, 18) not null,
      created_at timestamptz not null
    );
    create index contract_funding_member on contract_funding (member_id, id desc);

    create table contract_liquidation (
      id bigserial primary key,
      seq bigint not null,
      kind varchar(12) not null,
      symbol varchar(40) not null,
      member_id varchar(40) not null,
      side varchar(5),
      qty bigint not null,
      price numeric(38, 18) not null,
      mark numeric(38, 18),
      filled bigint,
      taken_over bigint,
      to_insurance numeric(38, 18),
      created_at timestamptz not null
    );
    create index contract_liquidation_member on contract_liquidation (member_id, id desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table contract_liquidation, contract_funding, contract_fill, contract_trade, contract_leverage, contract_position, contract_order, contract_symbol;
  `.execute(db);
}
