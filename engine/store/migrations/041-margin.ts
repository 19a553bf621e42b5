import { sql, type Kysely } from "kysely";

/**
 * Margin trading (issue 31, decision 050). Configuration: the lending pools (a coin's hourly rate,
 * the most principal lent at once, the smallest borrow) and the symbols tradable on margin (the
 * highest isolated leverage). State as the core holds it after each command: each open loan
 * (member, scope "all" or an isolated symbol, coin; principal, interest, the hour charged next)
 * and each margin account's isolated leverage and warning. Facts: `margin_record`, every borrow,
 * repayment (its interest and principal), interest charge and transfer, a member's history.
 * A ledger account's kind grows to name an isolated account's symbol (`margin:BTC/USDT`,
 * `loan:BTC/USDT`): a longer varchar is a change of the catalogue only, no table rewrite.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table ledger_account alter column kind type varchar(60);
    create table margin_pool (
      asset varchar(20) primary key,
      hourly_rate numeric(20, 12) not null check (hourly_rate >= 0 and hourly_rate <= 0.01),
      lend_limit numeric(38, 18) not null check (lend_limit >= 0),
      min_borrow numeric(38, 18) not null check (min_borrow > 0),
      sort int not null default 0
    );
    create table margin_pair (
      symbol varchar(40) primary key,
      base varchar(20) not null,
      quote varchar(20) not null,
      max_leverage int not null check (max_leverage between 2 and 10),
      sort int not null default 0
    );
    create table margin_loan (
      member_id varchar(40) not null,
      scope varchar(40) not null,
      asset varchar(20) not null,
      principal numeric(38, 18) not null,
      interest numeric(38, 18) not null,
      next_hour bigint not null,
      updated_at timestamptz not null,
      primary key (member_id, scope, asset)
    );
    create table margin_account (
      member_id varchar(40) not null,
      scope varchar(40) not null,
      leverage int,
      warned boolean not null default false,
      primary key (member_id, scope)
    );
    create table margin_record (
      id bigserial primary key,
      seq bigint not null,
      member_id varchar(40) not null,
      scope varchar(40) not null,
      asset varchar(20) not null,
      kind varchar(12) not null check (kind in ('borrow', 'repay', 'interest', 'in', 'out', 'writeoff')),
      amount numeric(38, 18) not null,
      principal numeric(38, 18) not null default 0,
      interest numeric(38, 18) not null default 0,
      created_at timestamptz not null
    );
    create index margin_record_member on margin_record (member_id, scope, seq desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table margin_record, margin_account, margin_loan, margin_pair, margin_pool`.execute(db);
  await sql`alter table ledger_account alter column kind type varchar(12)`.execute(db);
}
